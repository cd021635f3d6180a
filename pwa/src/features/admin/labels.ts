/**
 * Texts of the super administrator's screens that `messages` of @skyport/shared does not hold.
 * `adminSpecWords` are the spec's column and button names; `adminLabels` are ours to word.
 */
export const adminSpecWords = {
  business: 'Business',
  email: 'Email',
  name: 'Name',
  uid: 'UID',
  delete: 'Delete',
  deleteAirline: 'Delete Airline',
  acceptRequest: 'Accept Request',
  // Business columns (spec §2)
  airline: 'Airline',
  price: 'Price',
  stock: 'Stock',
  origin: 'Origin',
  destination: 'Destination',
  duration: 'Duration',
  departureHour: 'Departure Hour',
  arrivalHour: 'Arrival Hour',
  departureDate: 'Departure Date',
  arrivalDate: 'Arrival Date',
  logo: 'Logo',
} as const;

export const adminLabels = {
  disable: 'Disable',
  disabled: 'Disabled',
  deleteUser: (email: string) => `Delete ${email}`,
  disableUser: (email: string) => `Disable ${email}`,
  userIsDisabled: (email: string) => `${email} is disabled`,
  deleteAirlineOf: (name: string) => `Delete Airline ${name}`,
  makeAdminFor: (email: string) => `Make Admin: accept ${email}`,
  confirmDisableText: (email: string) =>
    `${email} will be logged out at once and won't be able to log in.`,
  confirmDisableButton: 'Yes, disable it!',
  userDisabled: (email: string) => `${email} has been disabled`,
  airlineApproved: (email: string) => `${email} is now an approved airline`,
  offlineActions: 'You are offline: administrator actions need a connection.',
  needsConnection: 'This list needs a connection. It will load when you are back online.',
  loadFailed: 'The list could not be loaded.',
  tryAgain: 'Try again',
  soldOut: 'Sold out',
  soldOutRows: 'Rows with no tickets left are highlighted.',
  flightsOf: (name: string, count: number) =>
    `${name}: ${count} ${count === 1 ? 'flight' : 'flights'}`,
  logoOf: (name: string) => `${name} logo`,
  overviewIntro: 'Every airline and all of its flights, sold out ones included.',
  logInAsAdmin: 'Log in as the administrator to see this page.',
  adminOnly: 'Only the administrator can see this page.',
  logIn: 'Log In',
  backHome: 'Back to home',
} as const;
