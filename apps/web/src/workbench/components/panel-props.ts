import type { TechnicianJob, TechnicianSession } from '../../lib/socket/use-technician-session.ts';

/** What every job panel gets. Panels are mounted anew for each job. */
export interface PanelProps {
  readonly job: TechnicianJob;
  readonly submit: TechnicianSession['submit'];
  readonly busy: boolean;
  /**
   * The job is a task of the exception desk (`exception.job`, spec 2 §2 "Federated-style task
   * panels"): the exception panel's wording of the rules applies.
   */
  readonly exception?: boolean;
}
