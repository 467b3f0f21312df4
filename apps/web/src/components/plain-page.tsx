import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface PlainPageProps {
  title?: string;
  message: string;
  children?: ReactNode;
}

/** A screen that only says something: not available yet, no access, not found. */
export function PlainPage({ title, message, children }: PlainPageProps) {
  return (
    <Box component="section" sx={{ maxWidth: 720 }}>
      {title ? (
        <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
          {title}
        </Typography>
      ) : null}
      <Typography>{message}</Typography>
      {children}
    </Box>
  );
}
