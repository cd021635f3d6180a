/**
 * Texts of the super administrator's screens that the spec has no words for: ours to word. The
 * spec's column and button names are `specLabels` of @skyport/shared.
 */
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
  showMoreFlights: (more: number, left: number) => `Show ${more} more (${left} not shown)`,
  logoOf: (name: string) => `${name} logo`,
  overviewIntro: 'Every airline and all of its flights, sold out ones included.',
  logInAsAdmin: 'Log in as the administrator to see this page.',
  adminOnly: 'Only the administrator can see this page.',
  logIn: 'Log In',
  backHome: 'Back to home',
} as const;
