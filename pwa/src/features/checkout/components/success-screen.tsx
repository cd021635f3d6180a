import { messages } from '@skyport/shared';

/** "PAGO EXITOSO" with a drawn check mark; the route moves on to /purchases after 4 s. */
export function SuccessScreen() {
  return (
    <section
      className="flex flex-col items-center gap-6 py-16 text-center"
      data-testid="payment-success"
    >
      <svg viewBox="0 0 52 52" className="animate-pop size-28 text-success" aria-hidden="true">
        <circle cx="26" cy="26" r="24" fill="currentColor" opacity="0.15" />
        <circle cx="26" cy="26" r="24" fill="none" stroke="currentColor" strokeWidth="3" />
        <path
          className="animate-draw"
          d="M15 27l7 7 15-16"
          fill="none"
          stroke="currentColor"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <h1 className="animate-rise text-4xl font-extrabold tracking-wide text-success sm:text-5xl">
        {messages.paymentSuccessTitle}
      </h1>
    </section>
  );
}
