/**
 * Texts of the signed e-tickets (issue 17: My Orders' ticket and the verification page). The spec
 * has no tickets, so every word here is Skyport's own; the input rules' messages are in
 * `messages` of @skyport/shared (ticketMissing, ticketMalformed, ticketTooLong).
 */
export const ticketLabels = {
  // My Orders
  column: 'Ticket',
  show: 'Show ticket',
  hide: 'Hide ticket',
  notIssued: 'Being issued',
  notIssuedHint: 'The ticket appears here once the server has signed it.',
  qrTitle: (airline: string, from: string, to: string) => `E-ticket: ${airline}, ${from} to ${to}`,
  qrHint: 'Show this code at boarding. It can be checked without a connection.',
  code: 'Ticket code',
  copy: 'Copy code',
  copied: 'Ticket code copied',
  copyFailed: 'Could not copy: select the code and copy it yourself',
  // The verification page
  verifyNav: 'Verify ticket',
  verifyTitle: 'Verify a ticket',
  verifyCaption:
    'Paste a ticket code, or scan its QR code, to check that Skyport issued it. The check works offline once this device has the keys.',
  pasteLabel: 'Ticket code',
  pasteHint: 'The code under the QR code in My Orders: three parts separated by dots.',
  verify: 'Verify',
  scan: 'Scan a QR code',
  scanStop: 'Stop scanning',
  scanning: 'Point the camera at the ticket’s QR code.',
  scanFailed: 'The camera could not be used. Paste the ticket code instead.',
  scanVideo: 'Camera view for scanning a QR code',
  keysLoading: 'Looking for the ticket keys on this device…',
  keysNone:
    'This device has no ticket keys yet. Connect to the internet once to download them; after that tickets verify offline.',
  keysHeld: (count: number, when: string) =>
    `${count} ${count === 1 ? 'key' : 'keys'} on this device, updated ${when}.`,
  keysRefreshFailed: 'Could not update the keys; the ones on this device are used.',
  // Results
  genuine: 'Genuine Skyport ticket',
  genuineText: 'The signature matches a Skyport key.',
  passenger: 'Passenger',
  airline: 'Airline',
  route: 'Route',
  routeValue: (from: string, to: string) => `${from} → ${to}`,
  departure: 'Departure',
  seats: 'Seats',
  order: 'Order',
  flight: 'Flight',
  validUntil: 'Valid until',
  problems: {
    malformed: 'This is not a Skyport ticket.',
    'unknown-key':
      'This ticket was signed with a key this device does not know. Connect to update the keys and try again; if it still fails, it is not a Skyport ticket.',
    'bad-signature': 'Forged or altered: the signature does not match this ticket.',
    expired: 'This ticket has expired: its flight is over.',
    unsupported:
      'This browser cannot check Skyport signatures (Ed25519). Use a current version of Chrome, Edge, Firefox or Safari.',
    'no-keys':
      'This device has no ticket keys yet. Connect to the internet once, then verify again.',
  },
  invalidTitle: 'Not a valid ticket',
  // What the server says (online only)
  serverChecking: 'Asking Skyport whether the ticket is still valid…',
  serverValid: 'Skyport confirms the ticket is valid: its order has not been cancelled.',
  serverVoid: 'Void: this ticket’s order was cancelled. Do not accept it.',
  serverUnknown: 'Skyport has no record of this ticket. Do not accept it.',
  serverOffline: 'Offline: whether the order was cancelled could not be checked.',
  serverFailed: 'Skyport could not be asked whether the order was cancelled.',
} as const;
