// What an import said about the workfile's signature, kept until the person dismisses it: the import
// opens the new assignment at once, so the assignment's page shows it there.
import { create } from 'zustand';
import type { WorkfileSignature } from '../../../shared/ipc.ts';

interface ImportNoticeState {
  notice: { assignmentId: string; signature: WorkfileSignature } | null;
  show: (assignmentId: string, signature: WorkfileSignature) => void;
  dismiss: () => void;
}

export const useImportNotice = create<ImportNoticeState>((set) => ({
  notice: null,
  show: (assignmentId, signature) => set({ notice: { assignmentId, signature } }),
  dismiss: () => set({ notice: null }),
}));
