import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { RouteErrorPage } from './route-error-page';

function Broken(): never {
  throw new Error('chunk failed to load');
}

describe('RouteErrorPage', () => {
  it('explains the failure and offers a reload and a way home', () => {
    // React reports the thrown error on the console; that is expected here.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <RouteErrorPage /> }]);

    render(<RouterProvider router={router} />);

    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByText('chunk failed to load')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    consoleError.mockRestore();
    consoleWarn.mockRestore();
  });
});
