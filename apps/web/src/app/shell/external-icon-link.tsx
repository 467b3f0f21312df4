import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';

interface ExternalIconLinkProps {
  /** Where the icon leads; empty means "not configured". */
  href: string;
  /** Accessible name and tooltip of the icon. */
  label: string;
  /** Tooltip when the address is not configured. */
  notConfigured: string;
  icon: ReactNode;
}

/**
 * A top-bar icon opening an external page in a new tab. Without an address it stays visible but
 * disabled (aria-disabled, so keyboard users can still reach it and read why).
 */
export function ExternalIconLink({ href, label, notConfigured, icon }: ExternalIconLinkProps) {
  if (href) {
    return (
      <Tooltip title={label} describeChild>
        <IconButton
          component="a"
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={label}
          color="inherit"
        >
          {icon}
        </IconButton>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={notConfigured} describeChild>
      <IconButton
        aria-label={label}
        aria-disabled="true"
        color="inherit"
        disableRipple
        sx={{ opacity: 0.5, cursor: 'not-allowed' }}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
}
