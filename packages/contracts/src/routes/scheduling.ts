import { any, type ApiRoute } from './api-route.ts';
import { ERROR_RESPONSES } from '../errors.ts';
import {
  Appointment,
  AppointmentsSummary,
  AppointmentsSummaryQuery,
  PhysiciansResponse,
  ScheduleAppointmentBody,
} from '../scheduling.ts';

/** The `/internal` routes of the scheduling area. */
export const SCHEDULING_ROUTES = [
  {
    method: 'GET',
    path: '/internal/physicians',
    access: any('patient:appointments:create', 'jobs:exception:perform'),
    area: 'scheduling',
    patientData: 'none',
    spec: '3 §7',
    response: { 200: PhysiciansResponse, ...ERROR_RESPONSES },
  },
  {
    method: 'POST',
    path: '/internal/appointments/_schedule',
    access: any('patient:appointments:create'),
    area: 'scheduling',
    patientData: 'write',
    spec: '3 §7',
    body: ScheduleAppointmentBody,
    response: { 201: Appointment, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/experiment/appointments/_summary',
    access: any('patient:appointments:create'),
    area: 'scheduling',
    patientData: 'read',
    spec: '3 §7',
    query: AppointmentsSummaryQuery,
    response: { 200: AppointmentsSummary, ...ERROR_RESPONSES },
  },
] as const satisfies readonly ApiRoute[];
