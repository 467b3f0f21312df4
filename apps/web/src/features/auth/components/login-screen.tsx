import GoogleIcon from '@mui/icons-material/Google';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

const YEAR = new Date().getFullYear();

interface LoginScreenProps {
  /** Terms and conditions address; empty when not configured. */
  termsUrl: string;
  onSignIn: () => void;
  busy: boolean;
}

/** The login card: title, the GSuite button, the terms link and the copyright footer. */
export function LoginScreen({ termsUrl, onSignIn, busy }: LoginScreenProps) {
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 4,
        p: 2,
      }}
    >
      <Box component="main" sx={{ width: '100%', maxWidth: 400 }}>
        <Paper
          sx={{ p: 4, display: 'flex', flexDirection: 'column', gap: 3, alignItems: 'stretch' }}
        >
          <Typography variant="h5" component="h1" sx={{ textAlign: 'center' }}>
            Login to your account
          </Typography>
          <Button
            variant="contained"
            size="large"
            startIcon={<GoogleIcon />}
            onClick={onSignIn}
            disabled={busy}
          >
            Login with GSuite
          </Button>
          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            {termsUrl ? (
              <Link href={termsUrl} target="_blank" rel="noopener noreferrer">
                Terms and conditions
              </Link>
            ) : (
              <Box component="span" sx={{ color: 'text.disabled' }} title="Not configured">
                Terms and conditions
              </Box>
            )}
          </Typography>
        </Paper>
      </Box>
      <Box component="footer">
        <Typography variant="caption" color="text.secondary">
          © {YEAR} Loopdesk
        </Typography>
      </Box>
    </Box>
  );
}
