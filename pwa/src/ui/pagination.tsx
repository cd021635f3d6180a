import { specLabels } from '@skyport/shared';
import { uiLabels } from './labels.ts';

/** Page numbers around the current one, with gaps: 1 … 4 5 [6] 7 8 … 20. */
export function pageWindow(page: number, pageCount: number, radius = 2): (number | 'gap')[] {
  const pages: (number | 'gap')[] = [];
  const start = Math.max(1, page - radius);
  const end = Math.min(pageCount, page + radius);
  if (start > 1) pages.push(1);
  if (start > 2) pages.push('gap');
  for (let n = start; n <= end; n++) pages.push(n);
  if (end < pageCount - 1) pages.push('gap');
  if (end < pageCount) pages.push(pageCount);
  return pages;
}

export interface PaginationProps {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

/** Previous, page numbers and Next (spec §2 home), as a daisyUI join. */
export function Pagination({ page, pageCount, onPageChange }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={uiLabels.pagination} className="flex justify-center">
      <div className="join flex-wrap justify-center">
        <button
          type="button"
          className="join-item btn btn-sm sm:btn-md"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          {specLabels.previous}
        </button>
        {pageWindow(page, pageCount).map((item, index) =>
          item === 'gap' ? (
            <span
              key={`gap-${index}`}
              className="join-item btn btn-sm sm:btn-md btn-disabled"
              aria-hidden="true"
            >
              …
            </span>
          ) : (
            <button
              key={item}
              type="button"
              className={`join-item btn btn-sm sm:btn-md ${item === page ? 'btn-primary' : ''}`}
              aria-current={item === page ? 'page' : undefined}
              aria-label={uiLabels.page(item)}
              onClick={() => onPageChange(item)}
            >
              {item}
            </button>
          ),
        )}
        <button
          type="button"
          className="join-item btn btn-sm sm:btn-md"
          disabled={page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          {specLabels.next}
        </button>
      </div>
    </nav>
  );
}
