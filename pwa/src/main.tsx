import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app/app.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const source = startApp();
createRoot(root).render(
  <StrictMode>
    <App source={source} />
  </StrictMode>,
);
