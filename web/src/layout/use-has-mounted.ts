import { useEffect, useState } from 'react';

/** False during the first render (and any server render), true once the component is on screen. */
export function useHasMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
  }, []);
  return mounted;
}
