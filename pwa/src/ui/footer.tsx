import { uiLabels } from './labels.ts';

/** About text, contact mailbox and source link (spec §1). */
export function Footer() {
  return (
    <footer className="footer sm:footer-horizontal mt-12 bg-base-200 p-8 text-base-content">
      <aside className="max-w-md">
        <p className="text-lg font-bold">{uiLabels.appName}</p>
        <p>{uiLabels.footerAbout}</p>
      </aside>
      <nav aria-label={uiLabels.footerContact}>
        <h2 className="footer-title">{uiLabels.footerContact}</h2>
        <a className="link link-hover" href={`mailto:${uiLabels.footerContactMailbox}`}>
          {uiLabels.footerContactMailbox}
        </a>
        <a className="link link-hover" href={uiLabels.footerSourceUrl} rel="noopener noreferrer">
          {uiLabels.footerSource}
        </a>
      </nav>
    </footer>
  );
}
