import {
  calculateTotals,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
} from '@skyport/shared';
import { hashPassword } from '../../features/identity/password.ts';
import type { Sql } from '../client.ts';
import type { FlightRow } from '../flight-row.ts';
import { DEMO_COUNTRIES, DEMO_COUNTRY_REGIONS, type Region } from './countries.ts';
import { createRandom, type Random } from './random.ts';

/**
 * Demo data for a fresh database: a dozen airlines with the logos of `pwa/public/logos/`, a few
 * hundred flights between real countries over the coming six months, past orders with their
 * sales and payments, reviews, and one account per role. Deterministic for a given day (seeded
 * generator; dates are relative to `today`), loaded in one transaction with one bulk insert per
 * table.
 *
 * Ownership: the demo airline account owns Aurora Airways; every other airline is owned by an
 * approved airline user `ops@<slug>.skyport.test` without a password (password_hash NULL, so it
 * cannot log in until a password reset), which keeps the administrator's airline list complete.
 * Reviews come from the demo customer and from eight synthetic customers (also password-less),
 * each backed by a paid order whose reviewed lines are marked reviewed.
 */

export interface DemoAccount {
  email: string;
  password: string;
  role: 'super_admin' | 'customer' | 'airline';
  description: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'admin@skyport.test',
    password: 'Admin123!',
    role: 'super_admin',
    description: 'super administrator',
  },
  {
    email: 'customer@skyport.test',
    password: 'Customer123!',
    role: 'customer',
    description: 'customer (verified email, past orders)',
  },
  {
    email: 'airline@skyport.test',
    password: 'Airline123!',
    role: 'airline',
    description: 'approved airline (Aurora Airways, flights and sales)',
  },
  {
    email: 'pending@skyport.test',
    password: 'Pending123!',
    role: 'airline',
    description: 'airline waiting for approval',
  },
];

export interface DemoAirline {
  slug: string;
  name: string;
  home: string;
  /** Relative share of the catalogue's flights. */
  weight: number;
  /** Typical review rating, 1 to 5, so that averages differ between airlines. */
  quality: number;
}

/** The demo airlines; `pwa/public/logos/<slug>.svg` is each one's logo. The first is the demo account's. */
export const DEMO_AIRLINES: readonly DemoAirline[] = [
  { slug: 'aurora-airways', name: 'Aurora Airways', home: 'Argentina', weight: 1.6, quality: 4.3 },
  { slug: 'andes-sky', name: 'Andes Sky', home: 'Chile', weight: 1, quality: 4.0 },
  { slug: 'pampa-air', name: 'Pampa Air', home: 'Uruguay', weight: 0.8, quality: 3.2 },
  { slug: 'nordic-wings', name: 'Nordic Wings', home: 'Norway', weight: 1, quality: 4.6 },
  { slug: 'sahara-jet', name: 'Sahara Jet', home: 'Morocco', weight: 0.9, quality: 2.6 },
  {
    slug: 'pacific-crest',
    name: 'Pacific Crest Airlines',
    home: 'New Zealand',
    weight: 1,
    quality: 4.1,
  },
  { slug: 'meridian-air', name: 'Meridian Air', home: 'United Kingdom', weight: 1.2, quality: 3.6 },
  { slug: 'coral-bay', name: 'Coral Bay Airlines', home: 'Jamaica', weight: 0.7, quality: 3.9 },
  {
    slug: 'atlas-connect',
    name: 'Atlas Connect',
    home: 'United States',
    weight: 1.3,
    quality: 3.0,
  },
  { slug: 'sakura-skyways', name: 'Sakura Skyways', home: 'Japan', weight: 1.1, quality: 4.8 },
  { slug: 'boreal-air', name: 'Boreal Air', home: 'Canada', weight: 0.9, quality: 3.4 },
  {
    slug: 'caribe-azul',
    name: 'Caribe Azul',
    home: 'Dominican Republic',
    weight: 0.8,
    quality: 2.2,
  },
];

export function logoPath(slug: string): string {
  return `/logos/${slug}.svg`;
}

export const DEMO_FLIGHT_COUNT = 400;
const DEMO_SEED = 20_240_601;
const PENDING_AIRLINE_NAME = 'Nimbus Air';

const REVIEWERS = [
  ['Lucía', 'Fernández'],
  ['Mateo', 'Rossi'],
  ['Aiko', 'Tanaka'],
  ['Oliver', 'Smith'],
  ['Amara', 'Okafor'],
  ['Sofia', 'Lindqvist'],
  ['Rahul', 'Mehta'],
  ['Chloé', 'Martin'],
] as const;

const COMMENTS: Record<number, readonly string[]> = {
  5: [
    'Excellent flight, friendly crew and we landed early.',
    'Smooth boarding and very comfortable seats. Would fly again!',
    'Great value for the price, and the food was surprisingly good.',
  ],
  4: [
    'Good flight overall, just a short delay at departure.',
    'Comfortable and on time; the entertainment could be better.',
    'Nice crew and a clean cabin.',
  ],
  3: [
    'Average experience, nothing special.',
    'The flight was fine but boarding was chaotic.',
    'OK for the price, though the seats were a bit narrow.',
  ],
  2: [
    'Two hours of delay and little information from the staff.',
    'Cramped seats and the meal was cold.',
  ],
  1: [
    'My checked bag was lost and nobody helped.',
    'Flight cancelled and rebooked for the next day. Never again.',
  ],
};

/** How a flight's description starts (the synthetic catalogue's too). */
export const DESCRIPTION_OPENERS = [
  'Direct flight',
  'Non-stop service',
  'Daily connection',
  'Comfortable flight',
  'Popular route',
];
/** What a flight's description adds (the synthetic catalogue's too). */
export const DESCRIPTION_EXTRAS = [
  'A 23 kg checked bag and a carry-on are included.',
  'Carry-on only; checked bags can be added at the airport.',
  'Meals and drinks are served on board.',
  'Free Wi-Fi and in-seat entertainment.',
  'Extra-legroom seats are available.',
  'Complimentary snacks and coffee.',
  'Flexible fare: change your date once at no cost.',
];

/** Distance level between two regions: 0 same region … 3 the other side of the world. */
const REGION_LEVEL: Record<Region, Record<Region, number>> = {
  'south-america': {
    'south-america': 0,
    'north-america': 2,
    europe: 3,
    africa: 3,
    'middle-east': 3,
    asia: 3,
    oceania: 3,
  },
  'north-america': {
    'south-america': 2,
    'north-america': 0,
    europe: 2,
    africa: 3,
    'middle-east': 3,
    asia: 3,
    oceania: 3,
  },
  europe: {
    'south-america': 3,
    'north-america': 2,
    europe: 0,
    africa: 1,
    'middle-east': 1,
    asia: 2,
    oceania: 3,
  },
  africa: {
    'south-america': 3,
    'north-america': 3,
    europe: 1,
    africa: 0,
    'middle-east': 1,
    asia: 2,
    oceania: 3,
  },
  'middle-east': {
    'south-america': 3,
    'north-america': 3,
    europe: 1,
    africa: 1,
    'middle-east': 0,
    asia: 1,
    oceania: 2,
  },
  asia: {
    'south-america': 3,
    'north-america': 3,
    europe: 2,
    africa: 2,
    'middle-east': 1,
    asia: 0,
    oceania: 1,
  },
  oceania: {
    'south-america': 3,
    'north-america': 3,
    europe: 3,
    africa: 3,
    'middle-east': 2,
    asia: 1,
    oceania: 0,
  },
};
/** Duration range in minutes per distance level. */
const DURATION_MINUTES: readonly (readonly [number, number])[] = [
  [60, 270],
  [210, 420],
  [420, 660],
  [660, 960],
];
/** Probability of the low and mid price bands per distance level (high takes the rest). */
const BAND_ODDS: readonly (readonly [number, number])[] = [
  [0.7, 0.25],
  [0.45, 0.4],
  [0.2, 0.45],
  [0.1, 0.35],
];

type UserRow = {
  id: string;
  uid: string;
  email: string;
  name: string;
  last_name: string | null;
  image: string | null;
  phone: string | null;
  role: 'customer' | 'airline' | 'super_admin';
  airline_status: 'pending' | 'approved' | null;
  email_verified: boolean;
  password_hash: string | null;
  created_at: Date;
};

type AirlineRow = {
  id: string;
  name: string;
  owner_user_id: string;
  image: string;
  created_at: Date;
};

type OrderRow = {
  id: string;
  user_id: string;
  payment_id: string;
  subtotal_cents: number;
  fee_cents: number;
  total_cents: number;
  created_at: Date;
};

type OrderLineRow = {
  id: string;
  order_id: string;
  flight_id: string;
  airline_id: string;
  amount: number;
  unit_price_cents: number;
  reviewed: boolean;
  airline_name: string;
  origin: string;
  destination: string;
  departure_date: string;
  departure_hour: string;
  arrival_hour: string;
};

type SaleRow = {
  id: string;
  airline_id: string;
  flight_id: string;
  order_line_id: string;
  unit_price_cents: number;
  amount: number;
  created_at: Date;
};

type PaymentRow = {
  id: string;
  user_id: string;
  provider: string;
  provider_payment_id: string;
  idempotency_key: string;
  amount_cents: number;
  status: 'captured';
  order_id: string;
  created_at: Date;
  updated_at: Date;
};

type ReviewRow = {
  id: string;
  user_id: string;
  order_id: string;
  flight_id: string;
  airline_id: string;
  rating: number;
  name: string;
  comment: string;
  more_info: { flightName: string; origin: string; destination: string }[];
  created_at: Date;
  updated_at: Date;
};

export interface DemoData {
  users: UserRow[];
  airlines: AirlineRow[];
  flights: FlightRow[];
  orders: OrderRow[];
  orderLines: OrderLineRow[];
  sales: SaleRow[];
  payments: PaymentRow[];
  reviews: ReviewRow[];
}

export interface SeedDemoOptions {
  /** The day the catalogue is relative to (departures from the next day on); default now. */
  today?: Date;
}

/** Whether the database has any user at all (the start-up check before seeding). */
export async function hasAnyUsers(sql: Sql): Promise<boolean> {
  const rows = await sql`SELECT EXISTS (SELECT 1 FROM users) AS found`;
  return rows[0]?.found === true;
}

/**
 * Loads the demo data in one transaction and returns how many rows went into each table.
 * If the demo accounts already exist it changes nothing and returns zeros with `skipped: 1`,
 * so asking for demo data twice (SEED_DEMO=always) is harmless.
 */
export async function seedDemoData(
  sql: Sql,
  options: SeedDemoOptions = {},
): Promise<Record<string, number>> {
  const passwordHashes = await Promise.all(
    DEMO_ACCOUNTS.map((account) => hashPassword(account.password)),
  );
  const data = buildDemoData(options.today ?? new Date(), passwordHashes);
  const counts = {
    users: data.users.length,
    airlines: data.airlines.length,
    flights: data.flights.length,
    orders: data.orders.length,
    orderLines: data.orderLines.length,
    sales: data.sales.length,
    payments: data.payments.length,
    reviews: data.reviews.length,
    skipped: 0,
  };

  const loaded = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('skyport:demo-seed'))`;
    const emails = DEMO_ACCOUNTS.map((account) => account.email);
    const existing = await tx`
      SELECT 1 FROM users WHERE lower(email) IN ${tx(emails)} AND deleted_at IS NULL LIMIT 1`;
    if (existing.length > 0) return false;

    await tx`INSERT INTO users ${tx(data.users)}`;
    await tx`INSERT INTO airlines ${tx(data.airlines)}`;
    await tx`INSERT INTO flights ${tx(data.flights)}`;
    await tx`INSERT INTO orders ${tx(data.orders)}`;
    await tx`INSERT INTO order_lines ${tx(data.orderLines)}`;
    await tx`INSERT INTO sales ${tx(data.sales)}`;
    await tx`INSERT INTO payments ${tx(data.payments)}`;
    await tx`INSERT INTO reviews ${tx(data.reviews.map((review) => ({ ...review, more_info: tx.json(review.more_info) })))}`;
    return true;
  });

  if (loaded) return counts;
  return Object.fromEntries(Object.keys(counts).map((key) => [key, key === 'skipped' ? 1 : 0]));
}

/**
 * Builds every demo row in memory (pure apart from the clock passed in): the same `today` and
 * hashes give the same rows. `passwordHashes` follow the order of DEMO_ACCOUNTS.
 */
export function buildDemoData(today: Date, passwordHashes: readonly string[]): DemoData {
  const random = createRandom(DEMO_SEED);
  const now = today.getTime();
  const baseDay = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const daysAgo = (days: number, plusMinutes = 0) =>
    new Date(now - days * 86_400_000 + plusMinutes * 60_000);

  // Users --------------------------------------------------------------------------------------
  const hashOf = (index: number) => passwordHashes[index] ?? null;
  const accountCreated = daysAgo(200);
  const user = (
    fields: Omit<UserRow, 'id' | 'uid' | 'created_at' | 'last_name' | 'image' | 'phone'> &
      Partial<Pick<UserRow, 'last_name' | 'image' | 'phone' | 'created_at'>>,
  ): UserRow => {
    const id = random.uuid();
    return {
      id,
      uid: id,
      last_name: null,
      image: null,
      phone: null,
      created_at: accountCreated,
      ...fields,
    };
  };
  const firstAirline = DEMO_AIRLINES[0] as DemoAirline;
  const admin = user({
    email: 'admin@skyport.test',
    name: 'Skyport',
    last_name: 'Admin',
    role: 'super_admin',
    airline_status: null,
    email_verified: true,
    password_hash: hashOf(0),
  });
  const customer = user({
    email: 'customer@skyport.test',
    name: 'Carla',
    last_name: 'Gómez',
    phone: '+571 555 0101',
    role: 'customer',
    airline_status: null,
    email_verified: true,
    password_hash: hashOf(1),
  });
  const airlineAccount = user({
    email: 'airline@skyport.test',
    name: firstAirline.name,
    image: logoPath(firstAirline.slug),
    role: 'airline',
    airline_status: 'approved',
    email_verified: true,
    password_hash: hashOf(2),
  });
  const pending = user({
    email: 'pending@skyport.test',
    name: PENDING_AIRLINE_NAME,
    role: 'airline',
    airline_status: 'pending',
    email_verified: true,
    password_hash: hashOf(3),
    created_at: daysAgo(2),
  });
  const airlineOwners = DEMO_AIRLINES.map((airline, index) =>
    index === 0
      ? airlineAccount
      : user({
          email: `ops@${airline.slug}.skyport.test`,
          name: airline.name,
          image: logoPath(airline.slug),
          role: 'airline',
          airline_status: 'approved',
          email_verified: true,
          password_hash: null,
        }),
  );
  const reviewers = REVIEWERS.map(([first, last]) =>
    user({
      email: `${asciiSlug(first)}.${asciiSlug(last)}@customers.skyport.test`,
      name: first,
      last_name: last,
      role: 'customer',
      airline_status: null,
      email_verified: true,
      password_hash: null,
      created_at: daysAgo(random.int(160, 400)),
    }),
  );
  const users = [admin, customer, pending, ...airlineOwners, ...reviewers];

  // Airlines and flights -------------------------------------------------------------------------
  const airlines: AirlineRow[] = DEMO_AIRLINES.map((airline, index) => ({
    id: random.uuid(),
    name: airline.name,
    owner_user_id: (airlineOwners[index] as UserRow).id,
    image: logoPath(airline.slug),
    created_at: accountCreated,
  }));
  const totalWeight = DEMO_AIRLINES.reduce((sum, airline) => sum + airline.weight, 0);
  const pickAirlineIndex = () => {
    let roll = random.next() * totalWeight;
    for (const [index, airline] of DEMO_AIRLINES.entries()) {
      roll -= airline.weight;
      if (roll < 0) return index;
    }
    return DEMO_AIRLINES.length - 1;
  };

  const flights: FlightRow[] = [];
  for (let n = 0; n < DEMO_FLIGHT_COUNT; n++) {
    const airlineIndex = n < DEMO_AIRLINES.length ? n : pickAirlineIndex();
    const meta = DEMO_AIRLINES[airlineIndex] as DemoAirline;
    const airline = airlines[airlineIndex] as AirlineRow;
    const origin = random.chance(0.45) ? meta.home : random.pick(DEMO_COUNTRIES);
    let destination = random.pick(DEMO_COUNTRIES);
    while (destination === origin) destination = random.pick(DEMO_COUNTRIES);
    const level = regionLevel(origin, destination);
    const [minDuration, maxDuration] = DURATION_MINUTES[level] as readonly [number, number];
    const duration = roundTo(random.int(minDuration, maxDuration), 5);
    const departureMinute = random.int(0, 287) * 5;
    const arrivalMinute = departureMinute + duration;
    const departureDay = random.int(1, 182);
    flights.push({
      id: random.uuid(),
      airline_id: airline.id,
      airline_name: airline.name,
      origin,
      destination,
      departure_date: isoDate(baseDay, departureDay),
      departure_hour: hhmm(departureMinute),
      arrival_date: isoDate(baseDay, departureDay + Math.floor(arrivalMinute / 1440)),
      arrival_hour: hhmm(arrivalMinute % 1440),
      duration_estimated: hhmm(duration),
      price_cents: pickPriceCents(random, level, n),
      tickets: pickStock(random, n),
      logo: airline.image,
      description: describe(random, airline.name, origin, destination, level),
      created_at: daysAgo(random.int(1, 30), random.int(0, 1439)),
    });
  }

  // Orders, lines, sales, payments, reviews ------------------------------------------------------
  const orders: OrderRow[] = [];
  const orderLines: OrderLineRow[] = [];
  const sales: SaleRow[] = [];
  const payments: PaymentRow[] = [];
  const reviews: ReviewRow[] = [];
  const auroraFlights = flights.filter((flight) => flight.airline_id === airlines[0]?.id);
  const qualityByAirline = new Map(
    airlines.map((airline, index) => [airline.id, DEMO_AIRLINES[index]?.quality ?? 3]),
  );

  const addOrder = (
    buyer: UserRow,
    ageDays: number,
    lines: readonly { flight: FlightRow; amount: number; reviewed: boolean }[],
  ) => {
    const createdAt = daysAgo(ageDays, random.int(7 * 60, 23 * 60));
    const totals = calculateTotals(
      lines.map((line) => ({ unitPriceCents: line.flight.price_cents, amount: line.amount })),
    );
    const order: OrderRow = {
      id: random.uuid(),
      user_id: buyer.id,
      payment_id: `pi_test_${random.uuid().replaceAll('-', '').slice(0, 20)}`,
      subtotal_cents: totals.subtotalCents,
      fee_cents: totals.feeCents,
      total_cents: totals.totalCents,
      created_at: createdAt,
    };
    orders.push(order);
    payments.push({
      id: random.uuid(),
      user_id: buyer.id,
      provider: 'test',
      provider_payment_id: order.payment_id,
      idempotency_key: `demo-${order.id}`,
      amount_cents: order.total_cents,
      status: 'captured',
      order_id: order.id,
      created_at: createdAt,
      updated_at: createdAt,
    });
    for (const { flight, amount, reviewed } of lines) {
      const line: OrderLineRow = {
        id: random.uuid(),
        order_id: order.id,
        flight_id: flight.id,
        airline_id: flight.airline_id,
        amount,
        unit_price_cents: flight.price_cents,
        reviewed,
        airline_name: flight.airline_name,
        origin: flight.origin,
        destination: flight.destination,
        departure_date: flight.departure_date,
        departure_hour: flight.departure_hour,
        arrival_hour: flight.arrival_hour,
      };
      orderLines.push(line);
      sales.push({
        id: random.uuid(),
        airline_id: flight.airline_id,
        flight_id: flight.id,
        order_line_id: line.id,
        unit_price_cents: flight.price_cents,
        amount,
        created_at: createdAt,
      });
      if (!reviewed) continue;
      const rating = clamp(
        Math.round((qualityByAirline.get(flight.airline_id) ?? 3) + (random.next() - 0.5) * 2.2),
        1,
        5,
      );
      const reviewedAt = new Date(
        createdAt.getTime() + random.int(1, Math.max(1, ageDays - 1)) * 86_400_000,
      );
      reviews.push({
        id: random.uuid(),
        user_id: buyer.id,
        order_id: order.id,
        flight_id: flight.id,
        airline_id: flight.airline_id,
        rating,
        name: `${buyer.name} ${buyer.last_name?.charAt(0) ?? ''}.`.replace(' .', ''),
        comment: random.pick(COMMENTS[rating] ?? []),
        more_info: [
          {
            flightName: flight.airline_name,
            origin: flight.origin,
            destination: flight.destination,
          },
        ],
        created_at: reviewedAt,
        updated_at: reviewedAt,
      });
    }
  };

  // The demo customer: four orders, some lines reviewed and some still waiting for a review;
  // Aurora Airways (the demo airline account) appears in the first and the last.
  const customerFlights = random.sample(
    flights.filter((flight) => flight.airline_id !== airlines[0]?.id),
    5,
  );
  const [auroraFirst, auroraLast] = random.sample(auroraFlights, 2);
  const line = (flight: FlightRow | undefined, amount: number, reviewed: boolean) => {
    if (!flight) throw new Error('demo data: not enough flights');
    return { flight, amount, reviewed };
  };
  addOrder(customer, 83, [line(auroraFirst, 2, true), line(customerFlights[0], 1, true)]);
  addOrder(customer, 47, [line(customerFlights[1], 3, false)]);
  addOrder(customer, 19, [
    line(customerFlights[2], 1, true),
    line(customerFlights[3], 2, false),
    line(customerFlights[4], 1, false),
  ]);
  addOrder(customer, 5, [line(auroraLast, 1, false)]);

  // Synthetic customers: two or three orders each over the last five months, about 70 % of lines
  // reviewed, a third of them on Aurora Airways so the demo airline has sales in several months.
  for (const reviewer of reviewers) {
    const orderCount = random.int(2, 3);
    for (let k = 0; k < orderCount; k++) {
      const count = random.int(1, 2);
      const picked = new Set<FlightRow>();
      while (picked.size < count)
        picked.add(random.chance(0.35) ? random.pick(auroraFlights) : random.pick(flights));
      addOrder(
        reviewer,
        random.int(6, 150),
        [...picked].map((flight) => ({
          flight,
          amount: random.int(1, 3),
          reviewed: random.chance(0.7),
        })),
      );
    }
  }

  return { users, airlines, flights, orders, orderLines, sales, payments, reviews };
}

function regionLevel(origin: string, destination: string): number {
  const regions: Readonly<Record<string, Region | undefined>> = DEMO_COUNTRY_REGIONS;
  const from = regions[origin];
  const to = regions[destination];
  return from && to ? REGION_LEVEL[from][to] : 2;
}

/**
 * Unit price in cents, whole hundreds of currency units. Longer routes lean to the higher bands;
 * the first flights sit exactly on the band edges (20.000 is low, 40.000 is high) so that the
 * slider's boundaries are exercised by the demo catalogue.
 */
function pickPriceCents(random: Random, level: number, index: number): number {
  const edges = [
    PRICE_BAND_LOW_MAX_CENTS,
    PRICE_BAND_MID_MAX_CENTS,
    PRICE_BAND_MID_MAX_CENTS - 100_00,
  ];
  const edge = edges[index];
  if (edge !== undefined) return edge;
  const [lowOdds, midOdds] = BAND_ODDS[level] as readonly [number, number];
  const roll = random.next();
  const units =
    roll < lowOdds
      ? random.int(30, 200) * 100
      : roll < lowOdds + midOdds
        ? random.int(201, 399) * 100
        : random.int(400, 1500) * 100;
  return units * 100;
}

/** Tickets left: about 6 % sold out, 12 % low (1–49, the "Solo n asientos" warning), else 50–300. */
function pickStock(random: Random, index: number): number {
  if (index === 3) return 0;
  if (index === 4) return 7;
  const roll = random.next();
  if (roll < 0.06) return 0;
  if (roll < 0.18) return random.int(1, 49);
  return random.int(50, 300);
}

function describe(
  random: Random,
  airline: string,
  origin: string,
  destination: string,
  level: number,
): string {
  const [first, second] = random.sample(DESCRIPTION_EXTRAS, 2);
  const night = level >= 2 && random.chance(0.5) ? ' Blankets and pillows for the long haul.' : '';
  return `${random.pick(DESCRIPTION_OPENERS)} from ${origin} to ${destination} with ${airline}. ${first} ${second}${night}`;
}

function isoDate(baseDayUtcMs: number, plusDays: number): string {
  return new Date(baseDayUtcMs + plusDays * 86_400_000).toISOString().slice(0, 10);
}

function hhmm(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}
