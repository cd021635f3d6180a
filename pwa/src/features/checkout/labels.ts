/** Texts of the payment page's attempt states and payment methods (beside ui/labels.ts). */
export const checkoutLabels = {
  confirmingTitle: 'Confirming your payment…',
  confirmingText:
    'The payment provider has not given a final answer yet. We keep checking this same payment, so you cannot be charged twice. You can stay on this page.',
  confirmingOffline:
    'You are offline. We will check this payment as soon as the connection is back.',
  checkNow: 'Check now',
  authenticatingTitle: 'Verify the payment with your bank',
  authenticatingText: 'Complete the verification your bank shows to finish the payment.',
  approvingTitle: 'Waiting for your approval in the wallet',
  approvingText:
    'Approve the payment in the wallet window. Nothing is charged until you approve it.',
  continueToWallet: 'Continue to the test wallet',
  cancelWallet: 'Cancel this payment',
  configLoading: 'Loading the payment methods…',
  configFailed: 'The payment methods could not be loaded.',
  retry: 'Try again',
  noMethods: 'No payment method is available right now.',
  paypalFailed: 'PayPal could not be loaded.',
  pendingAmount: 'Payment in progress',
  // Seat holds and re-quotes (issue 17)
  holding: 'Holding your seats…',
  heldFor: 'Your seats are held for',
  heldText: 'Pay before the time runs out. Then the seats go back on sale; your cart stays.',
  expiredTitle: "Time's up: your seats went back on sale",
  expiredText:
    'Your cart is still here. Hold the seats again to pay; if others bought them meanwhile, we will tell you.',
  holdAgain: 'Hold the seats again',
  holdFailed: 'Your seats could not be held',
  backToCart: 'Back to the cart',
  requoteTitle: 'The price changed',
  requoteOld: 'Your cart showed',
  requoteNew: 'The total is now',
  requoteText: 'An airline changed a price since you filled your cart. Nothing has been charged.',
  requoteConfirm: (total: string) => `Confirm the new total of ${total}`,
} as const;
