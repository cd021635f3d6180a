import { Component, type ErrorInfo, type ReactNode } from 'react';
import { uiLabels } from './labels.ts';

/** Keeps a failure inside one region of the page, with a way to try again. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="alert alert-error my-6">
        <span>{uiLabels.somethingBroke}</span>
        <button type="button" className="btn btn-sm" onClick={() => this.setState({ error: null })}>
          {uiLabels.tryAgain}
        </button>
      </div>
    );
  }
}
