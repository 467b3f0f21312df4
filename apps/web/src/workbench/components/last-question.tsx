import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The header of a message job: the assistant's last question (spec 1 §2 "Annotation screen"). */
export function LastQuestion({ question }: { question: string | null }) {
  if (!question) {
    return null;
  }
  return (
    <Box component="header" sx={{ mb: 2 }}>
      <Typography variant="overline" component="p" sx={{ color: 'text.secondary' }}>
        Last question
      </Typography>
      <Typography>{question}</Typography>
    </Box>
  );
}
