import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { ReactNode } from 'react';
import { useDigitKeys } from '../hooks/use-digit-keys.ts';
import { HotkeyHint } from './hotkey-hint.tsx';

export interface DigitOption {
  readonly value: string;
  readonly label: ReactNode;
}

/**
 * One choice among options, picked with the arrow keys or with digits 1-9 (shown before the first
 * nine labels, announced with `aria-keyshortcuts`), as the hotkey menu picks its entries (issue 20
 * "one keyboard model"). The first option has the focus at once. The priority and rephrase
 * screens use it.
 */
export function DigitRadioGroup({
  labelledBy,
  options,
  value,
  onChange,
  enabled = true,
}: {
  labelledBy: string;
  options: readonly DigitOption[];
  value: string | null;
  onChange: (value: string) => void;
  /** Digits pick only while enabled (not while a submission is in flight). */
  enabled?: boolean;
}) {
  useDigitKeys(
    options.length,
    (index) => {
      const option = options[index];
      if (option) {
        onChange(option.value);
      }
    },
    enabled,
  );
  return (
    <RadioGroup
      aria-labelledby={labelledBy}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
    >
      {options.map((option, index) => (
        <FormControlLabel
          // In line with the heading, with room for the radio's focus ripple (not clipped).
          sx={{ ml: 0 }}
          key={option.value}
          value={option.value}
          control={
            <Radio
              autoFocus={index === 0}
              slotProps={{
                input: index < 9 ? { 'aria-keyshortcuts': String(index + 1) } : {},
              }}
            />
          }
          label={
            <>
              {index < 9 ? <HotkeyHint hotkey={String(index + 1)} /> : null}
              {option.label}
            </>
          }
        />
      ))}
    </RadioGroup>
  );
}
