import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { messages } from '@skyport/shared';
import type { JournalDoc } from '../../../db/change-journal.ts';
import type {
  AcceptedChange,
  ChangeCollection,
  ChangeStates,
  ConflictChange,
  RefusedChange,
  WaitingChange,
} from '../../../sync/change-states.ts';
import { changeLabels } from '../../../ui/change-labels.ts';
import { formatTimeAgo, formatTimestamp } from '../../../ui/format.ts';
import { PageSection } from '../../../ui/page-section.tsx';

export interface PendingChangesScreenProps {
  states: ChangeStates;
  /** Whether the device is offline now (waiting changes go when it is back). */
  offline: boolean;
  /** Where a refused change is fixed (null: nowhere, only discarding helps). */
  fixPath: (change: RefusedChange) => string | null;
  onDiscard: (change: RefusedChange) => void;
  onDismiss: (change: ConflictChange) => void;
}

/** The time now, moved on every half minute: "2 minutes ago" keeps up while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const text = (doc: JournalDoc, field: string): string => {
  const value = doc[field];
  return typeof value === 'string' ? value : '';
};

function routeOf(doc: JournalDoc): string {
  return `${text(doc, 'origin')} → ${text(doc, 'destination')}`;
}

/** What a document of `collection` says, in a few words ("Argentina → Chile: 2 tickets"). */
export function describeChange(collection: ChangeCollection, doc: JournalDoc): string {
  switch (collection) {
    case 'cart':
      return doc._deleted
        ? `${routeOf(doc)}: ${changeLabels.removedFromCart}`
        : `${routeOf(doc)}: ${changeLabels.tickets(Number(doc.amount))}`;
    case 'favourites':
      return `${routeOf(doc)}: ${doc._deleted ? changeLabels.outOfFavourites : changeLabels.inFavourites}`;
    case 'preferences':
      return changeLabels.theme(text(doc, 'theme'));
    case 'reviewDrafts': {
      const rating = typeof doc.rating === 'number' ? doc.rating : null;
      const comment = text(doc, 'comment');
      const short = comment.length > 60 ? `${comment.slice(0, 59)}…` : comment;
      return `${changeLabels.reviewRating(rating)}${short ? `, “${short}”` : ''}`;
    }
  }
}

/** "Your cart was also changed on another device; we kept 3 tickets (you had chosen 2)." */
export function conflictText(change: ConflictChange): string {
  const { kept, mine } = change;
  switch (change.collection) {
    case 'cart': {
      const amount = (doc: JournalDoc | null) =>
        !doc || doc._deleted
          ? changeLabels.removedFromCart
          : `${changeLabels.tickets(Number(doc.amount))} of ${routeOf(doc)}`;
      return changeLabels.conflictKept.cart(amount(kept), amount(mine));
    }
    case 'favourites':
      return changeLabels.conflictKept.favourites(
        !kept || kept._deleted ? changeLabels.outOfFavourites : changeLabels.inFavourites,
      );
    case 'preferences':
      return changeLabels.conflictKept.preferences(
        changeLabels.theme(kept ? text(kept, 'theme') : 'system'),
      );
    case 'reviewDrafts':
      return changeLabels.conflictKept.reviewDrafts();
  }
}

function ChangeCard({
  testId,
  state,
  collection,
  children,
  actions,
}: {
  testId: string;
  state: string;
  collection: ChangeCollection;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <li
      className="card card-border bg-base-100"
      data-testid={testId}
      data-state={state}
      data-collection={collection}
    >
      <div className="card-body flex-row flex-wrap items-center gap-3 p-4">
        <div className="flex min-w-48 flex-1 flex-col gap-1">{children}</div>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </div>
    </li>
  );
}

function When({ at, now, label }: { at: number; now: number; label: (ago: string) => string }) {
  return (
    <p className="text-sm text-base-content/80">
      <time dateTime={new Date(at).toISOString()} title={formatTimestamp(at)}>
        {label(formatTimeAgo(at, now))}
      </time>
    </p>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return <h2 className="text-lg font-semibold">{children}</h2>;
}

/**
 * /changes: every change made on this device that has not simply reached the server (decision
 * 017). Refused changes with the server's reason, a way to fix them and a way to discard them;
 * conflicts with what was kept; what waits to be sent and since when; what was sent lately.
 */
export function PendingChangesScreen({
  states,
  offline,
  fixPath,
  onDiscard,
  onDismiss,
}: PendingChangesScreenProps) {
  const now = useNow();
  const { refused, conflicts, waiting, accepted } = states;
  const nothing = refused.length + conflicts.length + waiting.length === 0;
  const recent = [...accepted].reverse();
  return (
    <PageSection title={changeLabels.pageTitle} caption={changeLabels.pageCaption}>
      {nothing ? (
        <p className="alert alert-success" role="status" data-testid="changes-empty">
          {changeLabels.nothingPending}
        </p>
      ) : null}

      {refused.length + conflicts.length > 0 ? (
        <section className="flex flex-col gap-3" aria-label={changeLabels.attention}>
          <Heading>{changeLabels.attention}</Heading>
          <ul className="flex flex-col gap-3" data-testid="changes-attention">
            {refused.map((change) => (
              <RefusedCard
                key={`${change.collection}:${change.id}`}
                change={change}
                now={now}
                fixPath={fixPath(change)}
                onDiscard={onDiscard}
              />
            ))}
            {conflicts.map((change) => (
              <ChangeCard
                key={`${change.collection}:${change.id}`}
                testId="change-conflict"
                state="conflict"
                collection={change.collection}
                actions={
                  <button
                    type="button"
                    className="btn btn-sm"
                    onClick={() => onDismiss(change)}
                    data-testid="change-dismiss"
                  >
                    {changeLabels.gotIt}
                  </button>
                }
              >
                <p className="font-semibold">{changeLabels.kinds[change.collection]}</p>
                <p data-testid="change-conflict-text">{conflictText(change)}</p>
                <When at={change.at} now={now} label={(ago) => ago} />
              </ChangeCard>
            ))}
          </ul>
        </section>
      ) : null}

      {waiting.length > 0 ? (
        <section className="flex flex-col gap-3" aria-label={changeLabels.waitingSection}>
          <Heading>{changeLabels.waitingSection}</Heading>
          {offline ? <p className="text-base-content/80">{changeLabels.waitingOffline}</p> : null}
          <ul className="flex flex-col gap-3" data-testid="changes-waiting">
            {waiting.map((change: WaitingChange) => (
              <ChangeCard
                key={`${change.collection}:${change.id}`}
                testId="change-waiting"
                state="waiting"
                collection={change.collection}
              >
                <p className="font-semibold">{changeLabels.kinds[change.collection]}</p>
                <p>{describeChange(change.collection, change.doc)}</p>
                <When at={change.since} now={now} label={changeLabels.waitingSince} />
              </ChangeCard>
            ))}
          </ul>
        </section>
      ) : null}

      {recent.length > 0 ? (
        <section className="flex flex-col gap-3" aria-label={changeLabels.sentSection}>
          <Heading>{changeLabels.sentSection}</Heading>
          <ul className="flex flex-col gap-3" data-testid="changes-sent">
            {recent.map((change: AcceptedChange) => (
              <ChangeCard
                key={`${change.collection}:${change.id}`}
                testId="change-sent"
                state="accepted"
                collection={change.collection}
              >
                <p className="font-semibold">{changeLabels.kinds[change.collection]}</p>
                <p>{describeChange(change.collection, change.doc)}</p>
                <When at={change.at} now={now} label={changeLabels.sent} />
              </ChangeCard>
            ))}
          </ul>
        </section>
      ) : null}
      <p>
        <Link to="/" className="link">
          {messages.backToHome}
        </Link>
      </p>
    </PageSection>
  );
}

function RefusedCard({
  change,
  now,
  fixPath,
  onDiscard,
}: {
  change: RefusedChange;
  now: number;
  fixPath: string | null;
  onDiscard: (change: RefusedChange) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ChangeCard
      testId="change-refused"
      state="refused"
      collection={change.collection}
      actions={
        <>
          {fixPath ? (
            <Link to={fixPath} className="btn btn-sm btn-primary" data-testid="change-fix">
              {changeLabels.fix}
            </Link>
          ) : null}
          <button
            type="button"
            className="btn btn-sm btn-outline"
            title={changeLabels.discardHint}
            disabled={busy}
            onClick={() => {
              setBusy(true);
              onDiscard(change);
            }}
            data-testid="change-discard"
          >
            {changeLabels.discard}
          </button>
        </>
      }
    >
      <p className="font-semibold">{changeLabels.kinds[change.collection]}</p>
      <p>{describeChange(change.collection, change.attempted)}</p>
      <p className="font-medium text-error" data-testid="change-reason">
        {changeLabels.refused(change.reason)}
      </p>
      <When at={change.at} now={now} label={changeLabels.refusedAt} />
    </ChangeCard>
  );
}
