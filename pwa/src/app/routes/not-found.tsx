import { Link } from 'react-router-dom';
import { messages } from '@skyport/shared';
import { PlaneIcon } from '../../ui/icons.tsx';

/** Any other path: the spec's 404 text and a Back to home button. */
export function NotFoundRoute({ message = messages.notFoundPage }: { message?: string }) {
  return (
    <section className="flex flex-col items-center gap-6 py-16 text-center" data-testid="not-found">
      <PlaneIcon className="size-20 -rotate-45 text-primary" />
      <h1 className="max-w-xl text-2xl font-bold sm:text-3xl">{message}</h1>
      <Link to="/" className="btn btn-primary">
        {messages.backToHome}
      </Link>
    </section>
  );
}
