import { useState } from 'react';
import { DisclaimerDialog } from '../../components/disclaimer-dialog.tsx';

const storageKey = (userId: string) => `loopdesk:disclaimer-agreed:${userId}`;

function hasAgreed(userId: string): boolean {
  try {
    return localStorage.getItem(storageKey(userId)) !== null;
  } catch {
    return false;
  }
}

function rememberAgreement(userId: string): void {
  try {
    localStorage.setItem(storageKey(userId), new Date().toISOString());
  } catch {
    // Without storage the disclaimer simply shows again next time.
  }
}

interface DisclaimerGateProps {
  userId: string;
  termsUrl: string;
  /** False until the portal settings (terms link) are known. */
  ready: boolean;
}

/**
 * Shows the disclaimer after sign-in until this user agrees; the agreement is remembered in this
 * browser per user id (see README).
 */
export function DisclaimerGate({ userId, termsUrl, ready }: DisclaimerGateProps) {
  const [agreed, setAgreed] = useState(() => hasAgreed(userId));
  return (
    <DisclaimerDialog
      open={ready && !agreed}
      termsUrl={termsUrl}
      onAgree={() => {
        rememberAgreement(userId);
        setAgreed(true);
      }}
    />
  );
}
