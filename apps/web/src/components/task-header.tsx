import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export interface TaskHeaderProps {
  /** Where "back" goes (a dashboard or queue) and what it is called there. */
  back: { to: string; label: string };
  /** The place of the task, outermost first: e.g. the pipeline and then the step. */
  trail: readonly string[];
  /** The screen's name (the page's h2). */
  title: string;
  /** What the step asks of the user, in one sentence. */
  instruction?: string | undefined;
  /** A line about the subject (the patient, the condition…). */
  subtitle?: ReactNode;
  /** Moves focus to the title when the task opens (keyboard users start at the top). */
  focusOnMount?: boolean;
}

/**
 * The header of a work item (issue 20 point 18): a way back, where the item sits (pipeline and
 * step, queue…), its name and the instruction of its step. Internal ids and state codes are not
 * shown: users know a task by its place and its subject. Reused by every task screen.
 */
export function TaskHeader({
  back,
  trail,
  title,
  instruction,
  subtitle,
  focusOnMount = true,
}: TaskHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) {
      heading.current?.focus();
    }
  }, [focusOnMount]);
  return (
    <header>
      <Breadcrumbs aria-label="Where this task is" sx={{ mb: 0.5 }}>
        <Link
          component={RouterLink}
          to={back.to}
          underline="hover"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        >
          <ArrowBackIcon fontSize="small" aria-hidden />
          {back.label}
        </Link>
        {trail.map((place, index) => (
          <Typography
            key={place}
            color={index === trail.length - 1 ? 'text.primary' : 'text.secondary'}
            {...(index === trail.length - 1 ? { 'aria-current': 'location' as const } : {})}
          >
            {place}
          </Typography>
        ))}
      </Breadcrumbs>
      <Typography variant="h5" component="h2" ref={heading} tabIndex={-1}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography variant="subtitle1" color="text.secondary">
          {subtitle}
        </Typography>
      ) : null}
      {instruction ? (
        <Typography variant="body1" sx={{ mt: 0.5 }}>
          {instruction}
        </Typography>
      ) : null}
    </header>
  );
}
