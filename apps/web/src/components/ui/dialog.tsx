import type { ReactNode } from 'react';
import { Dialog as D } from 'radix-ui';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}

/** Accessible modal (Radix): focus is trapped, Escape and the overlay close it. */
export function Dialog({ open, onOpenChange, title, description, children }: DialogProps) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <D.Content className="fixed inset-x-0 top-1/2 z-50 mx-auto w-[calc(100%-2rem)] max-w-sm -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <D.Title className="text-lg font-bold text-slate-900">{title}</D.Title>
          {description ? (
            <D.Description className="mt-2 text-sm text-slate-600">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          {children && <div className="mt-5 flex flex-col gap-2">{children}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
