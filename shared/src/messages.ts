/**
 * Every user-visible text of the spec (§2, §5, §8), verbatim, including its spelling.
 * UI and server both take their texts from here; nothing is typed inline.
 */
export const messages = {
  // §8 error catalogue
  notEnoughStock: "You can't buy more tickets, there's not enough in stock",
  noStockAvailable: 'No stock available',
  loginToSaveFavourites: 'Log in to save your favorites!',
  invalidCredentials: 'The password is invalid or the user does not have a password.',
  enterValidEmail: 'Enter valid email',
  somethingWentWrong: 'Something went wrong!',
  completeAllFields: 'Complete all fields',
  completeAllFieldsCorrectly: 'Please complete all fields correctly',
  userAlreadyExists: 'Usuario ya creado, login',
  loginToBuy: 'You need to be logged to buy',
  verifyEmailToBuy: 'You need to verify you email',
  formNotCompleted: 'Form not completed',
  originNotFound: 'opps... Origin not found',
  flightsNotFound: 'Flights not found, search again please!',
  oops: 'Oops...',
  completeAllFieldsReview: 'Complete all fields!',

  // §8 toasts
  ticketAddedToCart: 'Ticket added to cart',
  ticketAddedToFavourites: 'Ticket added to favorites',
  deletedFromFavourites: 'Deleted from favorites',
  deletedFromCart: 'Deleted from cart',
  paymentSuccessful: 'Payment Succesful!',
  loggedOut: 'Log out!',
  feedbackSent: 'Your feedback has been send!',
  deleted: 'Deleted!',

  // §5 registration
  firstNameInvalid: 'Your first name cannot contain numbers or special characters',
  lastNameInvalid: 'Your last name cannot contain numbers or special characters',
  provideImage: 'Please provide an image',
  enterEmailValid: 'Please enter a valid email',
  enterPhoneValid: 'Please enter a valid phone number',
  passwordRule:
    'Password must be 8-12 characters and contain a lowercase letter, an uppercase letter, a number and one of @$!%*?&',
  passwordMismatch: 'Password does not match',
  agreeToTerms: 'Agree to terms and conditions to sent form',
  airlineRegistered: 'Registro exitoso!',

  // §5 login and password reset
  emailNotValid: 'This email is not valid',
  enterAnEmail: 'Please enter an email',
  checkYourEmail: 'Check your email',

  // §5 flight form
  countryNotAllowed: 'Country not allowed',
  dateNotAllowed: 'Date not allowed',
  durationRequired: 'Indicate de duration estimated, please',
  chooseAFlight: 'Choose a flight',

  // §5 review
  enterAName: 'Enter a name',
  enterARating: 'Enter a rating value',
  ratingRange: 'Rating value must be between 0 and 5',
  enterAComment: 'Enter a comment',

  // §2 screens
  homeLoaderTitle: "We're preparing your flights",
  homeLoaderWait: 'Please Wait',
  homeLoaderLoading: 'Loading...',
  notFoundPage: 'Error 404 Page Not Found! There are no Flights or Tickets here',
  backToHome: 'Back to home',
  paymentSuccessTitle: 'PAGO EXITOSO',
  yourOrders: 'Your orders',
  noPurchases:
    "You haven't made any purchases yet. Once you purchase an item, it will show up here.",
  paymentStatusConfirmed: 'Payment status: confirmed',
  moreDetails: 'More Details',
  reviewModalTitle: 'Give us your feedback!',
  reviewUsersName: 'Users name',
  reviewYourComment: 'Your comment',
  reviewSubmit: 'Publicar',
  yourSales: 'Your sales',
  salesChart: 'Sales Chart',
  salesChartTotalSale: 'Total Sale',
  salesChartTicketsSold: 'Tickets sold',
  noSales:
    'You have not received ticket purchases yet, when users make their purchase the tickets will appear here',
  salesNotFoundLog: 'Sales not found.',
  usersTableTitle: 'All active users using the website',
  emptyName: '(empty)',
  noUsers: 'No users',
  airlinesTableTitle: 'All airlines using the website',
  noAirlinesManagement: 'No airlines?',
  confirmDeleteTitle: 'Are you sure?',
  confirmDeleteText: "You won't be able to revert this!",
  confirmDeleteButton: 'Yes, delete it!',
  pendingRequestsTitle: 'Airline Pending Requests',
  pendingRequestsCaption: 'This airlines are waiting to be accepted',
  makeAdmin: 'Make Admin',
  noPendingAirlines: 'No airlines',
  businessNoFlights: 'Esta aerolínea no tiene vuelos',
  businessNoCompanies: 'No hay compañías registradas',

  // Identity answers the spec does not word (Skyport's own texts, not from the spec)
  loginRequired: 'You need to log in',
  notAllowed: 'You are not allowed to do this',
  accountDisabled: 'This account has been disabled',
  tooManyAttempts: 'Too many attempts, please try again later',
  linkInvalid: 'This link is invalid or has expired',
  emailVerifiedDone: 'Your email is verified',
  emailAlreadyVerified: 'Your email is already verified',
  passwordChanged: 'Your password has been changed',
  noPasswordSet: 'This account signs in with Google; use "Forgot your password" to set a password',

  // The home page offline before this device has stored the catalogue (Skyport's own text)
  catalogueNotOnDevice: 'You are offline and the flights are not on this device yet',

  // Cart and favourites (Skyport's own texts, not from the spec)
  flightNoLongerAvailable: 'This flight is no longer available',

  // Logout with changes this device could not send (Skyport's own texts, not from the spec)
  logoutUnsentTitle: 'Some of your changes are not saved yet',
  logoutStaySignedIn: 'Stay signed in',
  logoutAnyway: 'Log out anyway',

  // Signed e-tickets, issue 17 (Skyport's own texts, not from the spec)
  ticketMissing: 'Paste a ticket to verify it',
  ticketMalformed:
    'This is not a ticket: paste the whole ticket code (three parts separated by dots)',
  ticketTooLong: 'This is too long to be a Skyport ticket',

  // Seat holds and re-quotes, issue 17 (Skyport's own texts, not from the spec)
  holdExpired: 'Your seat hold has expired: the seats went back on sale. Hold them again to pay.',
  holdNotFound: 'No such seat hold',
  holdAlreadyPaid: 'These seats are already paid for',

  // Input rules of every text field (Skyport's own texts, not from the spec)
  textNotStorable:
    'This text contains a character that cannot be stored (a NUL character or an unpaired surrogate)',
} as const;

/** "Solo {n} asientos disponibles!" — the low-stock warning on a flight card. */
export function lowStockWarning(tickets: number): string {
  return `Solo ${tickets} asientos disponibles!`;
}

/**
 * A seat hold asking for more of one flight than one customer may hold (Skyport's own text):
 * `most` seats, `percent` of the flight's seats.
 */
export function holdShareExceeded(flight: string, most: number, percent: number): string {
  const seats = most === 1 ? '1 seat' : `${most} seats`;
  return `You can hold at most ${seats} of the flight ${flight} (${percent}% of its seats). Lower the amount in your cart.`;
}

/** "You can't buy more tickets, there's not enough in stock" plus the amount in stock. */
export function notEnoughStockWithAmount(stock: number): string {
  return `${messages.notEnoughStock} ${stock}`;
}

/**
 * The logout dialog's text when `count` changes made on this device could not be sent: what is
 * lost by logging out now, and what staying signed in keeps.
 */
export function logoutUnsentChanges(count: number): string {
  const changes = count === 1 ? '1 change' : `${count} changes`;
  const them = count === 1 ? 'it' : 'them';
  return (
    `${changes} made on this device could not be sent to Skyport (no connection, or the server did not answer). ` +
    `If you log out now, ${count === 1 ? 'it' : 'they'} will be lost. ` +
    `Stay signed in to keep ${them}: Skyport sends ${them} as soon as it can.`
  );
}
