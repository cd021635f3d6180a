/**
 * The words the spec names for navigation, menus, buttons and table columns, as the UI shows
 * them. Kept apart from `messages` (the §8 catalogue and the spec's sentences): these are
 * labels, not messages. Texts the spec has no words for stay in the PWA as its own labels.
 */
export const specLabels = {
  // §2 Navigation by role
  favs: 'Favs',
  logIn: 'Log In',
  signIn: 'Sign In',
  logOut: 'Log Out',
  catalog: 'Catalog',
  sales: 'Sales',
  business: 'Business',
  // §2 Profile side menu
  accountInformation: 'Account Information',
  myOrders: 'My Orders',
  manageAirline: 'Manage Airline',
  userManagement: 'User Management',
  airlineManagement: 'Airline Management',
  airlinePendingRequests: 'AirlinePendingRequests',
  // §2 screens and buttons
  favoritesList: 'Favorites List',
  createYourAccount: 'Create your account',
  forgotYourPassword: 'Forgot your password',
  contactUs: 'Contact Us',
  addYourAirline: 'Add your Airline',
  addToCart: 'Add to cart',
  goToHome: 'Go to Home',
  changePassword: 'Change Password',
  previous: 'Previous',
  next: 'Next',
  resetFilter: 'Reset filter',
  // §2 Catalog (airline) buttons; Delete is also the user management column
  add: 'Add',
  edit: 'Edit',
  delete: 'Delete',
  // §2 Super admin screens: user, airline and pending-request tables
  email: 'Email',
  name: 'Name',
  uid: 'UID',
  deleteAirline: 'Delete Airline',
  acceptRequest: 'Accept Request',
  // §2 Super admin screens: Business table columns
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
  // §2 orders table
  columnAirline: 'Airline',
  columnAmount: 'Amount',
  columnValue: 'Value',
  columnReview: 'Review',
  columnMoreInfo: 'More info',
  // §4 price slider marks and orderings
  bandLow: 'Up to 20.000',
  bandMid: '20.000 to 40.000',
  bandHigh: 'Above 40.000',
  bandAll: 'All',
  sortInitial: 'Initial',
  sortPriceDesc: 'Price: high to low',
  sortPriceAsc: 'Price: low to high',
  sortAirlineAsc: 'Airline: A-Z',
  sortAirlineDesc: 'Airline: Z-A',
  sortStockDesc: 'Availability: high',
  sortStockAsc: 'Availability: low',
  // §2 cart
  subtotal: 'Subtotal',
  fee: 'Fee',
  total: 'Total',
  checkout: 'Checkout',
} as const;
