import { Box, LinearProgress, Stack, Typography } from '@mui/material';

export interface LoadItem {
  label: 'Conditions' | 'Observations' | 'Relationships' | 'Ontology';
  /** 0 to 100. */
  value: number;
  detail: string;
}

/** Load progress of what the visualiser needs first (spec 3 §2 "Conversations"). */
export function LoadProgress({ items }: { items: readonly LoadItem[] }) {
  return (
    <Stack component="section" aria-label="Load progress" spacing={1} sx={{ maxWidth: 520 }}>
      {items.map((item) => (
        <Box key={item.label}>
          <Typography variant="body2" id={`load-${item.label}`}>
            {item.label}: {item.detail}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={item.value}
            aria-labelledby={`load-${item.label}`}
          />
        </Box>
      ))}
    </Stack>
  );
}
