import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useConditionSubgraph } from '../api/get-condition-subgraph.ts';
import { useConditions, type ConditionModel } from '../api/get-conditions.ts';
import { addToGraph, EMPTY_GRAPH } from '../utils/graph.ts';

// React Flow and ELK load with the first graph drawn, not with the portal (issue 20 #27).
const GraphCanvas = lazy(() =>
  import('./graph-canvas.tsx').then((module) => ({ default: module.GraphCanvas })),
);

/** The query parameter that holds the chosen condition's id, so a reload draws it again. */
export const CONDITION_PARAM = 'condition';

/**
 * `/knowledge/inspect/graph` (spec 3 §2): a dropdown of conditions sorted by display name;
 * choosing one draws its knowledge graph. The choice is kept in the address
 * (`?condition=LD:appendicitis`): a reload, the back button or a shared link shows the same graph.
 */
export function InspectGraphScreen() {
  const toast = useToast();
  const conditions = useConditions();
  const [params, setParams] = useSearchParams();
  const chosenId = params.get(CONDITION_PARAM);
  const condition = useMemo(
    () => conditions.data?.find((item) => item.bid === chosenId) ?? null,
    [conditions.data, chosenId],
  );
  const subgraph = useConditionSubgraph(condition?.bid ?? null);
  const choose = (next: ConditionModel | null) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next) {
        updated.set(CONDITION_PARAM, next.bid);
      } else {
        updated.delete(CONDITION_PARAM);
      }
      return updated;
    });

  // An address naming no condition of the list (an old link, a typo): say so and drop it.
  const unknownId = conditions.isSuccess && chosenId !== null && !condition ? chosenId : null;
  useEffect(() => {
    if (unknownId !== null) {
      toast.error(`No condition with the id '${unknownId}': choose one from the list.`);
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          updated.delete(CONDITION_PARAM);
          return updated;
        },
        { replace: true },
      );
    }
  }, [unknownId, toast, setParams]);

  // Graph and model call failures: the HTTP error as a toast (spec 3 §8).
  const failure = conditions.error ?? subgraph.error;
  useEffect(() => {
    if (failure) {
      toast.error(errorMessage(failure));
    }
  }, [failure, toast]);

  // Choosing a condition clears the graph, then adds its vertexes and edges (spec 3 §4).
  const graph = useMemo(
    () => (condition && subgraph.data ? addToGraph(EMPTY_GRAPH, subgraph.data) : EMPTY_GRAPH),
    [condition, subgraph.data],
  );

  return (
    <Stack spacing={2}>
      <Autocomplete
        sx={{ maxWidth: 480 }}
        options={conditions.data ?? []}
        getOptionLabel={(option) => option.display}
        isOptionEqualToValue={(option, value) => option.bid === value.bid}
        value={condition}
        onChange={(_event, next) => choose(next)}
        loading={conditions.isPending}
        renderInput={(params) => <TextField {...params} label="Condition" />}
      />
      {conditions.isPending || subgraph.isFetching ? (
        <LinearProgress aria-label="Loading the knowledge graph" />
      ) : null}
      {condition && graph.vertexes.length > 0 ? (
        <Suspense fallback={<LinearProgress aria-label="Loading the graph viewer" />}>
          <GraphCanvas graph={graph} label={`Knowledge graph of ${condition.display}`} />
        </Suspense>
      ) : null}
      {chosenId === null ? (
        <Typography color="text.secondary">
          Choose a condition to inspect its knowledge graph.
        </Typography>
      ) : null}
      {condition && subgraph.isSuccess && graph.vertexes.length === 0 ? (
        <Alert severity="info">This condition has no graph.</Alert>
      ) : null}
    </Stack>
  );
}
