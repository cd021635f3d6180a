/**
 * The libraries the app is built on. main.tsx evaluates them before the app's own modules, in a
 * task of their own (see there); what is exported here only makes sure that they are evaluated.
 */
export { StrictMode } from 'react';
export { hydrateRoot } from 'react-dom/client';
export { createBrowserRouter } from 'react-router-dom';
