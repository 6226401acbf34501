'use client';
/** The VM's YAML, editable: Validate (dry run) and Save (PUT, strict field validation); errors at their lines. */
import { resourcePath, VirtualMachineResource } from '@/lib/kubevirt/resources';
import { useEffect, useMemo, useState } from 'react';
import { parse, stringify } from 'yaml';
import type { VirtualMachine } from '@/lib/kubevirt';
import type { ApiFailure } from '@/lib/console/api-status';
import { lineOfField } from '@/lib/console/yaml-field-line';
import { ApiError, kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { useToast } from '@/components/ui/Toasts';
import { ServerErrors } from './ServerErrors';
import { YamlEditor } from './YamlEditor';

const clean = (vm: VirtualMachine) => { const { metadata, ...rest } = vm; const { managedFields: _m, ...meta } = metadata as typeof metadata & { managedFields?: unknown }; return { ...rest, metadata: meta }; };

export function VMYaml({ vm, canWrite }: { vm: VirtualMachine; canWrite: boolean }) {
  const server = useMemo(() => stringify(clean(vm)), [vm]);
  const [text, setText] = useState(server);
  const [dirty, setDirty] = useState(false);
  const [failure, setFailure] = useState<ApiFailure>();
  const toast = useToast();
  useEffect(() => { if (!dirty) setText(server); }, [server, dirty]);
  const path = resourcePath(VirtualMachineResource, { namespace: vm.metadata.namespace, name: vm.metadata.name });
  const submit = async (dryRun: boolean) => {
    let body: unknown;
    try { body = parse(text); } catch (err) { setFailure({ code: 400, reason: 'BadRequest', message: `YAML does not parse: ${(err as Error).message}`, causes: [] }); return; }
    try {
      await kubeFetch('PUT', `${path}?fieldValidation=Strict${dryRun ? '&dryRun=All' : ''}`, body);
      setFailure(undefined);
      toast('success', dryRun ? 'Valid: the server accepts it.' : 'Saved.');
      if (!dryRun) setDirty(false);
    } catch (err) {
      if (err instanceof ApiError) setFailure(err.failure); else setFailure({ code: 0, reason: '', message: (err as Error).message, causes: [] });
    }
  };
  const marks = useMemo(() => (failure?.causes ?? []).map((c) => (c.field ? lineOfField(text, c.field) : undefined)).filter((n): n is number => !!n), [failure, text]);
  return (
    <div className="flex flex-col gap-3">
      {dirty && server !== text && <p className="text-xs text-amber-700 dark:text-amber-400">Edited — live updates to this VM are paused in the editor until you save or reset.</p>}
      <YamlEditor value={text} readOnly={!canWrite} markLines={marks} onChange={(v) => { setText(v); setDirty(true); }} />
      <ServerErrors failure={failure} lineOf={(f) => lineOfField(text, f)} />
      {canWrite && (
        <div className="flex gap-2">
          <Button variant="primary" onClick={() => submit(false)} disabled={!dirty}>Save</Button>
          <Button onClick={() => submit(true)}>Validate</Button>
          <Button variant="ghost" onClick={() => { setText(server); setDirty(false); setFailure(undefined); }} disabled={!dirty}>Reset</Button>
        </div>
      )}
    </div>
  );
}
