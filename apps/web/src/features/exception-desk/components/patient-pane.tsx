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
import type { Transcript as TranscriptData } from '../hooks/use-transcript.ts';
import { Transcript } from './transcript.tsx';

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
  transcript: TranscriptData;
  onSchedule: () => void;
  onTerminate: () => void;
  onHandBack: () => void;
}

/**
 * The right pane (spec 2 §2): the patient's name linking to the EMR record, 'End and schedule
 * appointment', 'Terminate encounter', handing back to the assistant, and the live transcript.
 */
export function PatientPane({
  conversation,
  transcript,
  onSchedule,
  onTerminate,
  onHandBack,
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
      sx={{
        gap: 1.5,
        flex: 1,
        minWidth: 0,
        minHeight: 0,
        borderLeft: 1,
        borderColor: 'divider',
        pl: 2,
      }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
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
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={onSchedule}>
          {EXCEPTION_TEXTS.endAndSchedule}
        </Button>
        <Button variant="outlined" color="error" onClick={onTerminate}>
          {EXCEPTION_TEXTS.terminate}
        </Button>
        <Button variant="outlined" onClick={onHandBack}>
          Hand back to assistant
        </Button>
      </Stack>
      <Transcript key={conversation.conversationId} transcript={transcript} />
    </Stack>
  );
}
