import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { EntityExtractionResult } from '@loopdesk/contracts/intelligence.ts';

export type ResolvedSegment = EntityExtractionResult['resolved']['resolvedEntities'][number];

/**
 * Spec 3 §9 legend colours: pink and purple, each dark enough for white text at 4.5:1 (pink 600;
 * pink 400, #ec407a, gave 3.8:1).
 */
export const RECOGNISED_COLOUR = '#d81b60';
export const NORMALISED_COLOUR = '#8e24aa';

/** Spec 3 §2: the tooltip of an item without concepts. */
export const NO_MATCHED_CONCEPTS = 'No matched concepts';

/** A legend chip: Recognised Entity (pink) or Normalised Entity (purple). */
export function LegendChip({ label, colour }: { label: string; colour: string }) {
  return <Chip size="small" label={label} sx={{ bgcolor: colour, color: '#fff' }} />;
}

/**
 * The text with each recognised item as a chip holding its original text (spec 3 §2): purple when
 * it was normalised to concepts, pink when recognised without any; the tooltip lists the concepts
 * or says 'No matched concepts'.
 */
export function ResolvedText({
  segments,
  label,
}: {
  segments: readonly ResolvedSegment[];
  label: string;
}) {
  return (
    <Box
      aria-label={label}
      role="region"
      sx={{ whiteSpace: 'pre-wrap', lineHeight: 2.4, wordBreak: 'break-word' }}
    >
      {segments.map((segment, index) => {
        if (typeof segment === 'string') {
          return <span key={index}>{segment}</span>;
        }
        const normalised = segment.normalised.length > 0;
        const concepts = segment.normalised.map((item) => item.display).join(', ');
        return (
          <Tooltip key={index} title={normalised ? concepts : NO_MATCHED_CONCEPTS} arrow>
            <Chip
              size="small"
              label={segment.original}
              // Focusable, so the tooltip of concepts opens from the keyboard too.
              tabIndex={0}
              sx={{
                bgcolor: normalised ? NORMALISED_COLOUR : RECOGNISED_COLOUR,
                color: '#fff',
                mx: 0.25,
                maxWidth: '100%',
              }}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
}
