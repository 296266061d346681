import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './faq.css';

interface Question {
  id: string;
  question: string;
  answer: ReactNode;
}

export const QUESTIONS: readonly Question[] = [
  {
    id: 'what',
    question: 'What is Tickerbell?',
    answer: (
      <>
        A market analytics and monitoring app for traders: exchange open and close notifications, price and technical
        alerts you can hear, live quotes and charts, watchlists and futures positioning, in one dashboard. See every
        feature on the <Link to="/features">features page</Link>.
      </>
    ),
  },
  {
    id: 'cost',
    question: 'Does it cost anything?',
    answer: (
      <>
        No: every account gets every feature. The operator of each install sets how many alerts an account may keep
        active. See <Link to="/pricing">Pricing</Link>.
      </>
    ),
  },
  {
    id: 'timezones',
    question: 'Which time zone are market notifications in?',
    answer: 'Each exchange’s own. Tickerbell computes opens and closes in the exchange’s time zone, including its daylight-saving changes, and shows the time in yours.',
  },
  {
    id: 'twice',
    question: 'Will I get the same notification twice?',
    answer: 'No. Each market event fires once per exchange per day, and each crypto alert notifies at most once a day.',
  },
  {
    id: 'no-sound',
    question: 'Why don’t I hear anything?',
    answer: 'Check that sound is on in Settings and that you have clicked in the page once since opening it: browsers block sound until you interact. Spoken alerts also need a window wider than 768 px.',
  },
  {
    id: 'how-many',
    question: 'How many notifications are kept?',
    answer: 'Your newest 50, newest first. You can mark them read one at a time or all at once, or clear the list.',
  },
  {
    id: 'dark',
    question: 'Can I keep the dark theme all the time?',
    answer: 'Yes. Choose Dark (or Light) in the account menu or in Settings. Auto switches to light at 06:00 and to dark at 18:00.',
  },
  {
    id: 'self-host',
    question: 'Can I run Tickerbell on my own server?',
    answer: 'Yes. Tickerbell is self-hostable: a web app, an API, background workers, PostgreSQL and Redis.',
  },
];

export function FaqPage() {
  return (
    <div className="container page content-page">
      <title>FAQ · Tickerbell</title>
      <header className="page-header">
        <p className="eyebrow">Support</p>
        <h1>Frequently asked questions</h1>
        <p className="page-lede">
          Short answers to what people ask most. Need more? Try the <Link to="/help">help center</Link>.
        </p>
      </header>
      <div className="faq-list">
        {QUESTIONS.map((item) => (
          <details key={item.id} className="faq">
            <summary className="faq__question">{item.question}</summary>
            <p className="faq__answer">{item.answer}</p>
          </details>
        ))}
      </div>
    </div>
  );
}
