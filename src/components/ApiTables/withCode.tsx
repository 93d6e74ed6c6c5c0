// `code` spans in the constants' and contract's prose, as <code>.
import type {ReactNode} from 'react';

export function withCode(text: string): ReactNode {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) =>
      part.startsWith('`') && part.endsWith('`') ? <code key={index}>{part.slice(1, -1)}</code> : part,
    );
}
