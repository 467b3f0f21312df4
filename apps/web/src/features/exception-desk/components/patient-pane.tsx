import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  EMR_REFERENCE_PLACEHOLDER,
  type PersonSummary,
  type TenantConfiguration,
} from '@loopdesk/contracts/conversations.ts';
import { EXCEPTION_TEXTS, type ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import { useConfiguration } from '../api/get-configuration.ts';
import { useConsumer } from '../api/get-consumer.ts';
import type { ReactNode } from 'react';

/** The handback action's words: its button and its confirmation's title. */
export const HAND_BACK = 'Hand back to assistant';

/**
 * The patient's record in the EMR: the tenant configuration's link filled with the patient's
 * reference in that system, or a reference that is itself a web address.
 */
export function emrLink(
  person: PersonSummary | undefined,
  configuration: TenantConfiguration | undefined,
): string | null {
  const references = person?.externalReferences ?? [];
  const emr = configuration?.emr;
  if (emr) {
    const reference = references.find((r) => r.system === emr.system);
    if (reference) {
      return emr.recordUrl.replace(
        EMR_REFERENCE_PLACEHOLDER,
        encodeURIComponent(reference.reference),
      );
    }
  }
  return references.find((r) => /^https?:\/\//.test(r.reference))?.reference ?? null;
}

export interface PatientPaneProps {
  conversation: ExceptionConversation;
  onSchedule: () => void;
  onTerminate: () => void;
  onHandBack: () => void;
  /** What shows under the actions: the transcript with its composer, and the queue rail. */
  children: ReactNode;
}

/**
 * The right pane (spec 2 §2): the patient's name linking to the EMR record, and one row of
 * actions, 'End and schedule appointment', 'Terminate encounter' and handing back to the
 * assistant, over the live transcript (its children).
 */
export function PatientPane({
  conversation,
  onSchedule,
  onTerminate,
  onHandBack,
  children,
}: PatientPaneProps) {
  const person = useConsumer(conversation.userId, conversation.tenant);
  const configuration = useConfiguration(conversation.tenant);
  const name = person.data
    ? `${person.data.name.given} ${person.data.name.family}`.trim()
    : `${conversation.name.given} ${conversation.name.family}`.trim();
  const link = emrLink(person.data, configuration.data);
  return (
    <Stack
      component="section"
      aria-label="Patient"
      sx={{ gap: 1, flex: 1, minWidth: 0, minHeight: 0 }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ lineHeight: 1.3 }}>
          {link ? (
            <Link href={link} target="_blank" rel="noopener noreferrer">
              {name}
            </Link>
          ) : (
            name
          )}
        </Typography>
        {conversation.reason ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {conversation.reason}
          </Typography>
        ) : null}
      </Stack>
      <Stack
        direction="row"
        role="group"
        aria-label="Actions"
        sx={{ gap: 0.75, flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
      >
        <Button variant="contained" size="small" onClick={onSchedule}>
          {EXCEPTION_TEXTS.endAndSchedule}
        </Button>
        <Button variant="outlined" size="small" color="error" onClick={onTerminate}>
          {EXCEPTION_TEXTS.terminate}
        </Button>
        <Button variant="outlined" size="small" onClick={onHandBack}>
          {HAND_BACK}
        </Button>
      </Stack>
      {children}
    </Stack>
  );
}
