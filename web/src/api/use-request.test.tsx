import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { ApiError } from './client';
import { LoadMore, appendPage, useLoadMore, type CursorPage } from './use-request';

type Page = CursorPage<{ id: number }> & { title: string };

describe('appendPage', () => {
  it('appends the next page, skips rows already shown, takes its cursor and keeps the rest of the answer', () => {
    const shown: Page = { title: 'kept', rows: [{ id: 1 }, { id: 2 }], nextCursor: '2' };
    expect(appendPage(shown, { rows: [{ id: 2 }, { id: 3 }], nextCursor: null })).toEqual({ title: 'kept', rows: [{ id: 1 }, { id: 2 }, { id: 3 }], nextCursor: null });
  });
});

describe('useLoadMore and LoadMore', () => {
  /** A list of ids paged by a fake fetch whose answers the test settles by hand. */
  function List({ listKey, fetchAfter }: { listKey: string; fetchAfter: (cursor: string) => Promise<Page> }) {
    const [data, setData] = useState<Page>({ title: 'list', rows: [{ id: 1 }], nextCursor: 'c1' });
    const { more, loadMore } = useLoadMore(listKey, data.nextCursor, fetchAfter, (change: (shown: Page) => Page) => setData(change), appendPage);
    return (
      <>
        <p>{data.rows.map((row) => row.id).join(',')}</p>
        <LoadMore className="more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more rows" end={`That is every row (${data.rows.length}).`} failed="More rows could not be loaded" />
      </>
    );
  }

  it('loads the next page, says Loading… meanwhile, ends with the end line, and shows a failure under the list until the key changes', async () => {
    const answers: { resolve: (page: Page) => void; reject: (error: unknown) => void }[] = [];
    const fetchAfter = jest.fn((_cursor: string) => new Promise<Page>((resolve, reject) => answers.push({ resolve, reject })));
    const { rerender } = render(<List listKey="a" fetchAfter={fetchAfter} />);

    fireEvent.click(screen.getByRole('button', { name: 'Load more rows' }));
    expect(fetchAfter).toHaveBeenLastCalledWith('c1');
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled();
    await act(async () => answers[0]!.reject(new ApiError({ status: 503, code: 'unavailable', message: 'The database is not reachable' })));
    expect(screen.getByRole('alert')).toHaveTextContent('More rows could not be loaded: The database is not reachable');

    // Another query (key): the old failure goes.
    rerender(<List listKey="b" fetchAfter={fetchAfter} />);
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Load more rows' }));
    await act(async () => answers[1]!.resolve({ title: 'ignored', rows: [{ id: 1 }, { id: 2 }], nextCursor: null }));
    expect(screen.getByText('1,2')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('That is every row (2).')).toBeInTheDocument();
  });

  it('shows nothing at the end of a list that has no end line', () => {
    const { container } = render(<LoadMore className="more" more={{ state: 'idle' }} hasNext={false} onLoadMore={() => undefined} label="Load more" failed="More could not be loaded" />);
    expect(container).toBeEmptyDOMElement();
  });
});
