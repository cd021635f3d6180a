import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Theme } from '@skyport/shared';
import { readLocalTheme } from '../../../db/local-state.ts';
import { closeLocalData, type LocalData } from '../../../data/local-data.ts';
import { startTestServer, type TestServer } from '../../../sync/test-server.ts';
import { openTestDevice, serverRows, type TestDevice } from '../../../test/test-device.ts';
import { followThemePreference, type ThemePainter } from './theme.ts';

/**
 * The theme on screen and the preferences are one: devices are local databases (fake-indexeddb)
 * syncing with a real server; the screen is a fake painter standing in for ui/theme.ts.
 */

let server: TestServer;
const devices: LocalData[] = [];

/** A device: its local database and sync engine, a guest until it signs in. */
async function openDevice(): Promise<TestDevice> {
  const device = await openTestDevice(server, 'theme');
  devices.push(device);
  return device;
}

/** Free RxDB allows 13 open collections per process: one device at a time. */
async function closeDevice(data: LocalData) {
  devices.splice(devices.indexOf(data), 1);
  await closeLocalData(data);
}

/** The server's preferences table. */
function preferences() {
  return serverRows(server, 'preferences');
}

/** A screen: its choice, what was painted, and a switch that hands choices to the recorder. */
function fakeScreen(initial: Theme = 'system') {
  let choice = initial;
  const painted: Theme[] = [];
  const recorders = new Set<(theme: Theme) => void>();
  const painter: ThemePainter = {
    choice: () => choice,
    apply(theme) {
      choice = theme;
      painted.push(theme);
    },
    onChosen(record) {
      recorders.add(record);
      return () => recorders.delete(record);
    },
  };
  return {
    painter,
    painted,
    now: () => choice,
    choose(theme: Theme) {
      choice = theme;
      for (const record of recorders) record(theme);
    },
  };
}

/** Retries `check` until it passes (10 s at most). */
function eventually(check: () => unknown) {
  return vi.waitFor(check, { timeout: 10_000 });
}

beforeAll(async () => {
  server = await startTestServer({ flights: 2 });
});

afterAll(async () => {
  for (const data of [...devices]) await closeDevice(data);
  await server?.stop();
});

test("a customer's choice is saved in their preferences and comes to their next device", async () => {
  const customer = server.actors.customer;
  const laptop = await openDevice();
  const laptopScreen = fakeScreen();
  const stopLaptop = followThemePreference(laptop, laptopScreen.painter);
  await laptop.signIn(customer);

  const before = laptopScreen.painted.length;
  laptopScreen.choose('dark');
  await eventually(async () =>
    expect(await preferences()).toEqual([{ user_id: customer.id, theme: 'dark' }]),
  );
  expect(await readLocalTheme(laptop.db)).toBe('dark');
  // Only the choice was painted after it, never the theme it left.
  expect(laptopScreen.painted.slice(before).filter((theme) => theme !== 'dark')).toEqual([]);
  stopLaptop();
  await closeDevice(laptop);

  // A new device, nothing chosen there: logging in brings the account's theme on screen.
  const phone = await openDevice();
  const phoneScreen = fakeScreen();
  const stopPhone = followThemePreference(phone, phoneScreen.painter);
  await eventually(() => expect(phoneScreen.painted).toContain('system'));
  await phone.signIn(customer);
  await eventually(() => expect(phoneScreen.now()).toBe('dark'));
  expect(await readLocalTheme(phone.db)).toBe('dark');

  // A change there is the account's again.
  phoneScreen.choose('light');
  await eventually(async () =>
    expect(await preferences()).toEqual([{ user_id: customer.id, theme: 'light' }]),
  );
  stopPhone();
  await closeDevice(phone);
});

test("a choice only the device's storage remembers is kept and recorded on the device", async () => {
  const device = await openDevice();
  const screen = fakeScreen('dark');
  const stop = followThemePreference(device, screen.painter);
  await eventually(async () => expect(await readLocalTheme(device.db)).toBe('dark'));
  expect(screen.now()).toBe('dark');
  expect(screen.painted).not.toContain('system');
  stop();
  await closeDevice(device);
});
