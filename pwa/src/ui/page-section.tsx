import { useId, type ReactNode } from 'react';

export interface PageSectionProps {
  title: ReactNode;
  /** A line under the title. */
  caption?: ReactNode;
  /** Buttons and links on the title's line (they wrap under it on a phone). */
  actions?: ReactNode;
  /** 1 for a page's own title; 2 under a header (the airline's profile pages). */
  headingLevel?: 1 | 2;
  testId?: string;
  children: ReactNode;
}

/**
 * A screen's main section, named by its title: the title (with an optional caption) and its
 * actions on one line, then the content. The lists of My Orders, the airline and the administrator
 * share it, so their headers line up the same way.
 */
export function PageSection({
  title,
  caption,
  actions,
  headingLevel = 1,
  testId,
  children,
}: PageSectionProps) {
  const titleId = useId();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="flex flex-col gap-4" aria-labelledby={titleId} data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Heading
            id={titleId}
            className={headingLevel === 1 ? 'text-2xl font-bold' : 'text-xl font-bold'}
          >
            {title}
          </Heading>
          {caption ? <p className="text-base-content/80">{caption}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/**
 * Why some things on a screen wait for a connection (or come from the device): a status line
 * that disabled buttons point to with `aria-describedby`.
 */
export function StatusNote({
  id,
  tone = 'warning',
  testId,
  children,
}: {
  id?: string;
  tone?: 'warning' | 'info';
  testId: string;
  children: ReactNode;
}) {
  return (
    <p
      id={id}
      role="status"
      className={`alert ${tone === 'warning' ? 'alert-warning' : 'alert-info'} alert-soft text-sm`}
      data-testid={testId}
    >
      {children}
    </p>
  );
}

export interface TitledCardProps {
  /** `aside` for a card beside the main content (the order summary). */
  as?: 'section' | 'aside';
  title: ReactNode;
  headingLevel?: 2 | 3;
  /** Classes of the card (its background and shadow), of its body and of its title. */
  className?: string;
  bodyClassName?: string;
  titleClassName?: string;
  testId?: string;
  /** `data-*` attributes of the card (what tests find it by). */
  data?: Partial<Record<`data-${string}`, string>>;
  children: ReactNode;
}

/** A card named by its title: the order summary, the sales chart, an airline's flights. */
export function TitledCard({
  as: Card = 'section',
  title,
  headingLevel = 2,
  className = 'bg-base-100 shadow-sm',
  bodyClassName = 'gap-3',
  titleClassName = '',
  testId,
  data,
  children,
}: TitledCardProps) {
  const titleId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Card
      className={`card card-border ${className}`}
      aria-labelledby={titleId}
      data-testid={testId}
      {...data}
    >
      <div className={`card-body ${bodyClassName}`}>
        <Heading id={titleId} className={`card-title ${titleClassName}`}>
          {title}
        </Heading>
        {children}
      </div>
    </Card>
  );
}
