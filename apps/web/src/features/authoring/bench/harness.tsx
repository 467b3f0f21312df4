import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ToastProvider } from '../../../components/toast-provider.tsx';
import { AnnotationWorkspace } from '../components/annotation-workspace.tsx';
import type { AnnotationState, ScreenEntity } from '../model/annotations.ts';

/**
 * The page `npm run bench:document` drives (bench/document.ts): the Annotation Task screen's
 * workspace, mounted on a generated document, with nothing but the screen's own code. Not part of
 * the portal's build.
 */

const WORDS = ['pain', 'fever', 'cough', 'asthma', 'wheeze', 'fatigue', 'rash', 'nausea'];

/** ~`chars` characters of words, 12 a line; with `entities`, that many on the odd words. */
function generated(chars: number, entities: number): { text: string; state: AnnotationState } {
  const words: string[] = [];
  let length = 0;
  let seed = 7;
  while (length < chars) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const word = `${WORDS[seed % WORDS.length] ?? 'pain'}${words.length}`;
    words.push(word);
    length += word.length + 1;
  }
  let text = '';
  const list: ScreenEntity[] = [];
  words.forEach((word, index) => {
    const start = text.length;
    text += word + (index % 12 === 11 ? '\n' : ' ');
    if (index % 2 === 1 && list.length < entities) {
      list.push({
        data: {
          id: crypto.randomUUID(),
          start,
          end: start + word.length,
          extract: word,
          category: '',
          preferredText: '',
          conceptName: 'Concept',
          CUI: 'C0000000',
          TUI: [],
          notes: '',
        },
        state: 'automated',
      });
    }
  });
  return { text, state: { entities: list, relationships: [] } };
}

function Screen({ text, initial }: { text: string; initial: AnnotationState }) {
  const [value, setValue] = useState(initial);
  return <AnnotationWorkspace text={text} value={value} onChange={setValue} height={600} />;
}

let root: Root | null = null;
// The portal's theme lives in app/, which a feature may not import: MUI's dark theme stands in.
const theme = createTheme({ palette: { mode: 'dark' } });
const client = new QueryClient();

declare global {
  interface Window {
    mountDocument: (chars: number, entities: number) => void;
    unmountDocument: () => void;
  }
}

window.unmountDocument = () => {
  root?.unmount();
  root = null;
};

window.mountDocument = (chars, entities) => {
  const { text, state } = generated(chars, entities);
  root?.unmount();
  const host = document.getElementById('root');
  if (!host) {
    throw new Error('no #root');
  }
  root = createRoot(host);
  root.render(
    <QueryClientProvider client={client}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <Screen text={text} initial={state} />
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
};
