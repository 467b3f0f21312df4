import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import { useState } from 'react';
import { enableSound } from '../../../lib/sound/audio-context.ts';
import { useSoundAllowed } from '../../../lib/sound/use-sound-allowed.ts';

export const ENABLE_SOUND = 'Enable sound';
export const SOUND_ON = 'Sound is on.';

/**
 * After a reload the browser blocks the alert sound until the user clicks (issue 20): a one-click
 * "Enable sound" control shows until sound is allowed, then says so.
 */
export function SoundControl() {
  const allowed = useSoundAllowed();
  // Once blocked, the control says when sound comes on (state kept from an earlier render).
  const [wasBlocked, setWasBlocked] = useState(false);
  if (!allowed && !wasBlocked) {
    setWasBlocked(true);
  }
  if (allowed) {
    return wasBlocked ? (
      <Typography role="status" variant="body2" sx={{ color: 'success.main' }}>
        {SOUND_ON}
      </Typography>
    ) : null;
  }
  return (
    <Button
      size="small"
      variant="outlined"
      color="warning"
      startIcon={<VolumeOffIcon />}
      onClick={() => void enableSound()}
      title="The browser blocks the alert sound until you click on the page"
    >
      {ENABLE_SOUND}
    </Button>
  );
}
