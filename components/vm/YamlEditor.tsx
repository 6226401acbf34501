'use client';
/** CodeMirror YAML editor that marks the lines the server complained about. */
import CodeMirror from '@uiw/react-codemirror';
import { yaml } from '@codemirror/lang-yaml';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { RangeSetBuilder, StateField, type Extension } from '@codemirror/state';
import { useEffect, useMemo, useState } from 'react';

function errorLines(lines: number[]): Extension {
  const mark = Decoration.line({ class: 'cm-kv-error-line' });
  return [
    StateField.define<DecorationSet>({
      create: (state) => {
        const b = new RangeSetBuilder<Decoration>();
        for (const n of [...new Set(lines)].sort((a, c) => a - c)) if (n >= 1 && n <= state.doc.lines) b.add(state.doc.line(n).from, state.doc.line(n).from, mark);
        return b.finish();
      },
      update: (deco, tr) => deco.map(tr.changes),
      provide: (f) => EditorView.decorations.from(f),
    }),
    EditorView.baseTheme({ '.cm-kv-error-line': { backgroundColor: 'rgba(239, 68, 68, 0.18)' } }),
  ];
}

export function YamlEditor({ value, onChange, markLines = [], readOnly, height = '60vh' }: { value: string; onChange?: (v: string) => void; markLines?: number[]; readOnly?: boolean; height?: string }) {
  const [dark, setDark] = useState(false);
  useEffect(() => setDark(document.documentElement.classList.contains('dark')), []);
  const extensions = useMemo(() => [yaml(), errorLines(markLines)], [markLines]);
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 text-sm dark:border-slate-800" data-testid="yaml-editor">
      <CodeMirror value={value} height={height} theme={dark ? 'dark' : 'light'} extensions={extensions} readOnly={readOnly} onChange={onChange}
        basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: !readOnly }} />
    </div>
  );
}
