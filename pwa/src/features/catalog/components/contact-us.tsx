import { Link } from 'react-router-dom';
import { specLabels } from '@skyport/shared';
import { ChatIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';

/** The home page's Contact Us block (to airline registration) and chat link. */
export function ContactUs() {
  return (
    <section aria-labelledby="contact-title" className="card bg-primary text-primary-content">
      <div className="card-body flex-col items-start gap-3 sm:flex-row sm:items-center">
        <div className="flex-1">
          <h2 id="contact-title" className="card-title">
            {specLabels.contactUs}
          </h2>
          <p>{uiLabels.contactUsText}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/register/airline" className="btn btn-secondary" data-testid="contact-us">
            {specLabels.addYourAirline}
          </Link>
          <a
            href={uiLabels.chatUrl}
            className="btn btn-outline border-primary-content text-primary-content hover:bg-primary-content hover:text-primary"
          >
            <ChatIcon />
            {uiLabels.chatLink}
          </a>
        </div>
      </div>
    </section>
  );
}
