import type { ReactNode } from 'react';
import { PageHeader } from '../ui/page-header.tsx';

/** A screen: its main landmark, the title bar (with `back`, an arrow to that route), its body. */
export function Screen({ title, back, children }: { title: string; back?: string | undefined; children: ReactNode }) {
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={title} back={back} />
      <div className="flex flex-1 flex-col p-4">{children}</div>
    </main>
  );
}
