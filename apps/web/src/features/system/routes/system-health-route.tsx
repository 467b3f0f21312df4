import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { EmrTestResult } from '@loopdesk/contracts/system.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useEmrTest } from '../api/run-emr-test.ts';

/** Spec 3 §2 "System health": what the screen shows after a check. */
export const completeMessage = (status: number) => `Complete with status ${status}`;

const EMR_NAMES: Record<NonNullable<EmrTestResult['emr']>, string> = {
  builtin: 'the built-in record store',
  'fhir-r4': 'FHIR R4 server',
};

function detailOf(result: EmrTestResult): string | null {
  if (!result.emr) {
    return null;
  }
  const where =
    result.emr === 'fhir-r4' && result.url
      ? `${EMR_NAMES[result.emr]} ${result.url}`
      : EMR_NAMES[result.emr];
  const version = result.fhirVersion ? `, FHIR ${result.fhirVersion}` : '';
  const took = result.tookMs === undefined ? '' : ` in ${result.tookMs} ms`;
  return `Checked ${where}${took}${version}.`;
}

/**
 * /admin/system/health, 'EMR Check' (spec 3 §2, §7, §8): a tenant id, Run check, then
 * 'Complete with status {n}'; on failure the error is shown and the status becomes -1.
 */
export function SystemHealthRoute() {
  usePageTitle('EMR Check');
  const [tenant, setTenant] = useState('');
  const check = useEmrTest();
  const status = check.isError ? -1 : check.data?.status;
  return (
    <Box component="section" aria-label="EMR check">
      <Stack
        component="form"
        aria-label="Check a tenant's EMR"
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', mb: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          check.mutate(tenant);
        }}
      >
        <TextField
          label="Tenant id"
          value={tenant}
          onChange={(event) => setTenant(event.target.value)}
          size="small"
          sx={{ minWidth: 320 }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={tenant.trim() === '' || check.isPending}
        >
          Run check
        </Button>
      </Stack>
      <Box aria-live="polite">
        {check.isPending ? <Typography>Checking…</Typography> : null}
        {check.isError ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorMessage(check.error)}
          </Alert>
        ) : null}
        {status !== undefined && !check.isPending ? (
          <>
            <Typography variant="h6" component="p">
              {completeMessage(status)}
            </Typography>
            {check.data && !check.isError ? (
              <Typography sx={{ color: 'text.secondary' }}>{detailOf(check.data)}</Typography>
            ) : null}
          </>
        ) : null}
      </Box>
    </Box>
  );
}
