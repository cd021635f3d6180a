/**
 * Texts of the airline screens that the spec has no words for: ours to word (field labels and
 * columns of the catalog and flight form, the sale card, accessibility names, the waiting screen,
 * offline reasons). The spec's words (Add, Edit, Delete, Catalog, Manage Airline, Add your
 * Airline) are `specLabels` of @skyport/shared.
 */
export const airlineLabels = {
  // Sale card (spec §2 names its fields only in prose)
  saleNumber: (n: number) => `Sale #${n}`,
  flightId: 'Flight id',
  unitPrice: 'Unit price',
  ticketsSold: 'Tickets sold',
  totalSale: 'Total sale',
  // Catalog columns and flight form fields (the spec does not name them)
  origin: 'Origin',
  destination: 'Destination',
  departureDate: 'Departure date',
  departureHour: 'Departure hour',
  arrivalDate: 'Arrival date',
  arrivalHour: 'Arrival hour',
  duration: 'Duration',
  price: 'Price',
  stock: 'Stock',
  description: 'Description',
  // Registration
  airlineName: 'Airline name',
  contactLastName: 'Contact last name',
  logoUrl: 'Logo URL (ending in .jpg, .png, .gif or .bmp)',
  email: 'Email',
  phone: 'Phone',
  password: 'Password',
  confirmPassword: 'Confirm password',
  terms: 'I agree to the terms and conditions',
  sendRequest: 'Send request',
  haveAccount: 'Already registered?',
  offlineRegister: 'You are offline: sending the request needs a connection.',
  logIn: 'Log In',
  // Waiting for approval
  pendingTitle: 'Your airline is waiting for approval',
  pendingText:
    'An administrator reviews every new airline. Once your request is accepted you can publish flights and see your sales here.',
  pendingVerify: (email: string) =>
    `We sent a verification email to ${email}. Open the link in it to confirm your address.`,
  pendingLogIn:
    'You can log in with the email and password you chose to check whether your airline has been approved.',
  // Guards
  logInAsAirline: 'Log in with your airline account to see this page.',
  airlineOnly: 'Only airline accounts can see this page.',
  backHome: 'Back to home',
  // Catalog
  catalogCaption: (count: number) =>
    `Your flights: ${count}. Double-click a row, or press Enter on it, to edit a flight.`,
  noFlights: 'You have no flights yet. Add your first flight.',
  selectFlight: (route: string) => `Select the flight ${route}`,
  selectPage: 'Select every flight on this page',
  editFlight: (route: string) => `Edit the flight ${route}`,
  addFlightTitle: 'Add a flight',
  editFlightTitle: 'Edit flight',
  route: (origin: string, destination: string) => `${origin} to ${destination}`,
  flight: 'Flight',
  to: 'to',
  saving: 'Saving…',
  deleting: 'Deleting…',
  saved: 'Flight saved',
  created: 'Flight added',
  confirmDeleteFlights: (count: number) =>
    count === 1
      ? 'The selected flight will be removed from the catalogue.'
      : `The ${count} selected flights will be removed from the catalogue.`,
  soldOut: 'Sold out',
  save: 'Save',
  cancel: 'Cancel',
  selected: (count: number) => `${count} selected`,
  offlineActions: 'You are offline: adding, editing and deleting flights need a connection.',
  serverRefused: 'The server did not accept the flight:',
  // Country select
  searchCountry: 'Type to search a country',
  noCountry: 'No country matches',
  durationHint: 'hh:mm',
  // Sales
  month: 'Month',
  salesYear: (year: number) => `Sales in ${year}`,
  offlineSales: 'You are offline: these are the sales saved on this device.',
  loadingChart: 'Loading the chart…',
  airlineAccount: 'Airline account',
  goToCatalog: 'Go to your catalog',
  goToSales: 'See your sales',
} as const;
