import type { ReactNode } from 'react';

/** A correction offered within 5 minutes of the start: what is wrong, how to fix it, the control. */
export function AmendCard({
  id,
  title,
  text,
  children,
}: {
  id: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4">
      <h2 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h2>
      <p className="text-sm text-slate-600">{text}</p>
      {children}
    </section>
  );
}
