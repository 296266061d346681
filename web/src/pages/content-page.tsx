import type { ReactNode } from 'react';
import './content-page.css';

export interface ContentSection {
  id: string;
  heading: string;
  body: ReactNode;
}

export interface ContentPageProps {
  title: string;
  /** The document title; defaults to "<title> · Tickerbell". */
  documentTitle?: string;
  eyebrow?: string;
  lede: ReactNode;
  sections: readonly ContentSection[];
  children?: ReactNode;
}

/** The shared shape of the public text pages: a header, then one titled section per topic. */
export function ContentPage({ title, documentTitle, eyebrow, lede, sections, children }: ContentPageProps) {
  return (
    <div className="container page content-page">
      <title>{documentTitle ?? `${title} · Tickerbell`}</title>
      <header className="page-header">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1>{title}</h1>
        <div className="page-lede">{lede}</div>
      </header>
      {sections.length > 0 && (
        <nav className="content-page__toc" aria-label="On this page">
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.heading}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {sections.map((section) => (
        <section key={section.id} id={section.id} className="content-section" aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`}>{section.heading}</h2>
          {section.body}
        </section>
      ))}
      {children}
    </div>
  );
}
