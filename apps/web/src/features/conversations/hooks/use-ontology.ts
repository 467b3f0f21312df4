import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/http-error.ts';
import { loadOntology, openOntologyStore } from '../api/ontology-cache.ts';

export interface OntologyState {
  held: number;
  total: number;
  loaded: boolean;
  error: string | null;
}

/** The ontology in the browser's cache (spec 3 §7), loaded once per visit of the landing page. */
export function useOntology(): OntologyState {
  const [state, setState] = useState<OntologyState>({
    held: 0,
    total: 0,
    loaded: false,
    error: null,
  });
  useEffect(() => {
    const controller = new AbortController();
    openOntologyStore()
      .then((store) =>
        loadOntology(
          store,
          (held, total) => {
            if (!controller.signal.aborted) {
              setState({ held, total, loaded: false, error: null });
            }
          },
          controller.signal,
        ),
      )
      .then((held) => {
        if (!controller.signal.aborted) {
          setState({ held, total: held, loaded: true, error: null });
        }
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          setState((s) => ({ ...s, error: errorMessage(error) }));
        }
      });
    return () => controller.abort();
  }, []);
  return state;
}
