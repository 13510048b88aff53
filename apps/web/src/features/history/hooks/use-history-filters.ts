import { useSearchParams } from 'react-router';
import { filtersFromSearch, searchFromFilters, type HistoryFilters } from '../lib/history-filters.ts';

/** The sort and filters live in the URL: back, reload and a shared link keep them. */
export function useHistoryFilters(): [HistoryFilters, (f: HistoryFilters) => void, URLSearchParams] {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  return [filters, (f) => setSearch(searchFromFilters(f)), searchFromFilters(filters)];
}
