import 'katex/dist/katex.min.css';
import './styles/app.css';
import './styles/curation.css';
import './styles/evaluate.css';
import './styles/suppliers.css';
import './styles/tools.css';
import './styles/themes.css';
import './styles/fields.css';
import './styles/approval.css';
import './styles/invoices.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App.js';
import { FatalScreen } from './components/FatalScreen.js';
import { connect, type Connection } from './transport/connect.js';
import { ContractProvider } from './state/contractContext.js';
import { initTheme } from './state/theme.js';

initTheme();
const root = createRoot(document.getElementById('root')!);

let connection: Connection | null = null;
let failure: string | null = null;
try {
  connection = connect();
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
}

root.render(
  <StrictMode>
    {connection ? (
      <ContractProvider connection={connection}>
        <App />
      </ContractProvider>
    ) : (
      <FatalScreen title="Recto cannot connect" message={failure ?? 'Unknown error'} />
    )}
  </StrictMode>,
);
