import Button from '@mui/material/Button';
import { DEFAULT_EXCEPTION_LABEL } from '@loopdesk/workbench/purposes.ts';
import { exceptionHint } from '../utils/exception.ts';

export interface ExceptionButtonProps {
  /** Called on a press: the exception is raised at once. */
  readonly onRaise: () => void;
  /** Where the job goes, shown on hover and read with the button. */
  readonly message?: string;
  readonly disabled?: boolean;
  /** The button's text: the job's custom exception label, else 'Exception'. */
  readonly label?: string;
}

/**
 * 'Exception' (or the job's custom exception label). Like the annotation screen's, it acts at
 * once, as spec 1 §4 "Exception flow" says ("otherwise send the exception"): no screen asks first
 * (docs/decisions.md "Usability (issue 20): one Exception"). What it does is its description.
 */
export function ExceptionButton({
  onRaise,
  message = 'The job goes to the exception desk.',
  disabled = false,
  label = DEFAULT_EXCEPTION_LABEL,
}: ExceptionButtonProps) {
  const hint = exceptionHint(label, message);
  return (
    <Button
      variant="outlined"
      color="warning"
      disabled={disabled}
      onClick={onRaise}
      // Its description, on hover and for a screen reader: what the press does.
      title={hint}
    >
      {label}
    </Button>
  );
}
