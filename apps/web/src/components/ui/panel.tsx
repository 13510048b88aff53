import { useId, type ReactNode } from 'react';

/** A white card that is a titled section of a screen (its h2 names the region). */
export function Panel({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id={id} className="font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * One figure on a card: an icon, what it is (the region's name), the value, and where to go
 * for more (the vehicle count on /dashboard, the plan on /account).
 */
export function StatCard({
  icon,
  title,
  value,
  testId,
  action,
}: {
  icon: ReactNode;
  title: string;
  value: ReactNode;
  testId: string;
  action: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      {icon}
      <div className="min-w-0 flex-1">
        <h2 id={id} className="text-sm font-medium text-slate-600">
          {title}
        </h2>
        <p className="text-xl font-bold text-slate-900 tabular-nums" data-testid={testId}>
          {value}
        </p>
      </div>
      {action}
    </section>
  );
}
