/**
 * "Was this page helpful?" at the end of each doc page: Yes or No, then, after a No, an optional
 * reason from a fixed list (no free text). Each answer is a Plausible custom event (README,
 * "Reading reader signals in Plausible"); one vote per page per visit.
 *
 * No layout shift and no dead buttons: the server renders every step stacked in one grid cell,
 * all hidden (so the box has its final height, that of the tallest step); after hydration the
 * current step is shown. Without JavaScript the reserved space stays empty.
 */
import {useEffect, useId, useRef, useState, type ReactNode} from 'react';
import clsx from 'clsx';
import {useLocation} from '@docusaurus/router';

import {track} from '@site/lib/analytics-track';
import {storeVote, storedVote} from './feedbackStore';
import styles from './styles.module.css';

type Step = 'ask' | 'reason' | 'done';

/** Event names and the reasons' values as they arrive in Plausible. */
export const FEEDBACK_EVENT = 'Feedback';
export const REASON_EVENT = 'Feedback: Reason';

const REASONS = [
  {value: 'inaccurate', label: 'Inaccurate'},
  {value: 'hard-to-follow', label: 'Hard to follow'},
  {value: 'missing-example', label: 'Missing an example'},
  {value: 'other', label: 'Something else'},
] as const;

type Reason = (typeof REASONS)[number]['value'];

const TEXT = {
  label: 'Page feedback',
  question: 'Was this page helpful?',
  reasonQuestion: 'Thanks! What could be better?',
  optional: '(optional)',
  thanks: 'Thanks for your feedback!',
  thanksReason: 'Thanks, that helps us improve this page.',
} as const;

/** What the polite live region says when a step is reached. */
const ANNOUNCEMENTS: Record<Step, string> = {
  ask: '',
  reason: `${TEXT.thanks} What could be better? You may pick a reason.`,
  done: TEXT.thanks,
};

export default function PageFeedback(): ReactNode {
  const {pathname: page} = useLocation();
  return <PageFeedbackBox key={page} page={page} />;
}

function PageFeedbackBox({page}: {page: string}): ReactNode {
  const id = useId();
  // null until the browser has checked for an earlier vote: everything stays hidden till then.
  const [step, setStep] = useState<Step | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [thanks, setThanks] = useState<string>(TEXT.thanks);
  const sectionRef = useRef<HTMLElement>(null);
  const reasonsRef = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- storage exists only after hydration; the first render must match the server's
    setStep(storedVote(page) ? 'done' : 'ask');
  }, [page]);

  // After a vote the buttons pressed are gone: focus goes to what replaced them.
  useEffect(() => {
    if (!moveFocus.current) {
      return;
    }
    moveFocus.current = false;
    (step === 'reason' ? reasonsRef.current : sectionRef.current)?.focus();
  }, [step]);

  const go = (next: Step, announce: string = ANNOUNCEMENTS[next]) => {
    moveFocus.current = true;
    setAnnouncement(announce);
    setStep(next);
  };

  const vote = (value: 'yes' | 'no') => {
    storeVote(page, value);
    track(FEEDBACK_EVENT, {vote: value, page});
    go(value === 'yes' ? 'done' : 'reason');
  };

  const giveReason = (reason: Reason) => {
    track(REASON_EVENT, {reason, page});
    setThanks(TEXT.thanksReason);
    go('done', TEXT.thanksReason);
  };

  const shown = (panel: Step) => (step === panel ? styles.shown : undefined);
  return (
    <section
      ref={sectionRef}
      className={styles.feedback}
      aria-label={TEXT.label}
      tabIndex={-1}
      data-feedback-step={step ?? undefined}>
      <div className={styles.panels}>
        <div className={clsx(styles.panel, shown('ask'))}>
          <p className={styles.question} id={`${id}-ask`}>
            {TEXT.question}
          </p>
          <div className={styles.buttons} role="group" aria-labelledby={`${id}-ask`}>
            <button type="button" className={styles.button} onClick={() => vote('yes')}>
              Yes
            </button>
            <button type="button" className={styles.button} onClick={() => vote('no')}>
              No
            </button>
          </div>
        </div>
        <div className={clsx(styles.panel, shown('reason'))}>
          <p className={styles.question} id={`${id}-reason`}>
            {TEXT.reasonQuestion} <span className={styles.optional}>{TEXT.optional}</span>
          </p>
          <div ref={reasonsRef} className={styles.buttons} role="group" aria-labelledby={`${id}-reason`} tabIndex={-1}>
            {REASONS.map(({value, label}) => (
              <button key={value} type="button" className={styles.button} onClick={() => giveReason(value)}>
                {label}
              </button>
            ))}
          </div>
        </div>
        <p className={clsx(styles.panel, shown('done'))}>{thanks}</p>
      </div>
      {/* Polite live region: a vote is announced where it happens; it exists from the start so it is heard. */}
      <p className={styles.visuallyHidden} role="status">
        {announcement}
      </p>
    </section>
  );
}
