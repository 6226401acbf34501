'use client';
/**
 * Create a VM from a form (shows the YAML it will post) or from YAML; admission errors at their
 * field. A draft naming an instance type also shows the VM as the cluster expands it.
 */
import { resourcePath, StorageClassResource, subresourcePath, VirtualMachineResource } from '@/lib/kubevirt/resources';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { parse, stringify } from 'yaml';
import { RunStrategy, type KubeObject, type VirtualMachine } from '@/lib/kubevirt';
import { causesByField, formFieldOf, type ApiFailure } from '@/lib/console/api-status';
import { queryKeys } from '@/lib/console/query-keys';
import { buildVirtualMachine, DEFAULT_CREATE_FORM, needsStartAfterCreate, validateCreateForm, type CreateVMForm as Form } from '@/lib/console/vm-template';
import { lineOfField } from '@/lib/console/yaml-field-line';
import { ApiError, kubeFetch } from '@/components/live/api-fetch';
import { useCreatableNamespaces } from './useCreatableNamespaces';
import { useResourceList } from '@/components/live/useResourceList';
import { Button } from '@/components/ui/Button';
import { useToast } from '@/components/ui/Toasts';
import { ExpandedPreview } from './ExpandedPreview';
import { InstancetypeCatalogue } from './InstancetypeCatalogue';
import { ServerErrors } from './ServerErrors';
import { YamlEditor } from './YamlEditor';

const FIELD_MAP = { 'metadata.name': 'name', 'metadata.namespace': 'namespace', 'containerDisk.image': 'image', 'cpu.cores': 'cores', 'memory.guest': 'memory', 'cloudInitNoCloud.userData': 'userData', runStrategy: 'runStrategy', 'spec.instancetype': 'instancetype', 'instancetype.name': 'instancetype' };
const input = 'mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700';

function Field({ label, error, children, hint }: { label: string; error?: string; children: React.ReactNode; hint?: string }) {
  return (
    <label className="block text-sm font-medium">
      {label}{children}
      {hint && !error && <span className="mt-0.5 block text-xs font-normal text-slate-500 dark:text-slate-400">{hint}</span>}
      {error && <span role="alert" className="mt-0.5 block text-xs font-normal text-red-600 dark:text-red-400">{error}</span>}
    </label>
  );
}

/** The YAML tab's text as a VM to expand, when it parses to one. */
function draftFromYaml(text: string): VirtualMachine | undefined {
  try {
    const v: unknown = parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as VirtualMachine) : undefined;
  } catch { return undefined; }
}

export function CreateVMForm() {
  const [mode, setMode] = useState<'form' | 'yaml'>('form');
  const [form, setForm] = useState<Form>(DEFAULT_CREATE_FORM);
  const [yamlText, setYamlText] = useState('');
  const [failure, setFailure] = useState<ApiFailure>();
  const [busy, setBusy] = useState(false);
  const router = useRouter();
  const toast = useToast();
  const creatable = useCreatableNamespaces(form.namespace.trim() || undefined);
  const [nsTouched, setNsTouched] = useState(false);
  // offer a namespace the user may create in: the default one is often not (edit bound in one namespace)
  useEffect(() => {
    if (!nsTouched && creatable.extraAllowed === false && creatable.namespaces.length) setForm((f) => ({ ...f, namespace: creatable.namespaces[0] }));
  }, [nsTouched, creatable.extraAllowed, creatable.namespaces]);
  const images = useQuery<{ images: { name: string }[] }>({ queryKey: queryKeys.images(), queryFn: async () => (await fetch('/api/images')).json() });
  const classes = useResourceList<KubeObject>(resourcePath(StorageClassResource, {}));
  const defaultClass = classes.items.find((c) => c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true')?.metadata.name;
  const vm = useMemo(() => buildVirtualMachine(form), [form]);
  const preview = useMemo(() => stringify(vm), [vm]);
  const yamlDraft = useMemo(() => draftFromYaml(yamlText), [yamlText]);
  const local = validateCreateForm(form);
  const server = failure ? causesByField(failure) : {};
  const serverByFormField: Record<string, string> = {};
  for (const [f, msgs] of Object.entries(server)) { const ff = formFieldOf(f, FIELD_MAP); if (ff) serverByFormField[ff] = msgs.join('; '); }
  const err = (k: keyof Form) => (form.name || k !== 'name' ? local[k] : undefined) ?? serverByFormField[k];
  const set = <K extends keyof Form>(k: K, v: Form[K]) => { setForm((f) => ({ ...f, [k]: v })); setFailure(undefined); };

  const create = async () => {
    let body: typeof vm;
    try { body = mode === 'form' ? vm : parse(yamlText); } catch (e) { setFailure({ code: 400, reason: 'BadRequest', message: `YAML does not parse: ${(e as Error).message}`, causes: [] }); return; }
    const ns = body.metadata?.namespace ?? 'default';
    setBusy(true);
    try {
      await kubeFetch('POST', `${resourcePath(VirtualMachineResource, { namespace: ns })}?fieldValidation=Strict`, body);
      if (mode === 'form' && needsStartAfterCreate(form)) await kubeFetch('PUT', subresourcePath(VirtualMachineResource, ns, body.metadata.name ?? '', 'start'), {});
      toast('success', `Created ${body.metadata.name}`);
      router.push(`/vms/${ns}/${body.metadata.name}`);
    } catch (e) {
      setFailure(e instanceof ApiError ? e.failure : { code: 0, reason: '', message: (e as Error).message, causes: [] });
    } finally { setBusy(false); }
  };

  return (
    <div className="flex flex-col gap-4">
      {mode === 'form' && creatable.extraAllowed === false && <p data-testid="view-only-notice" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
        {creatable.namespaces.length
          ? `Your sign-in may not create VMs in namespace ${form.namespace}: the API server will refuse it. You may create them in: ${creatable.namespaces.join(', ')}.`
          : 'Your sign-in is view-only: it may create VMs in no namespace you can see, and the API server will refuse this one. Ask an administrator for edit rights, or sign in with another token.'}
      </p>}
      <div className="flex gap-1" role="tablist">
        {(['form', 'yaml'] as const).map((m) => (
          <Button key={m} variant={mode === m ? 'primary' : 'ghost'} role="tab" aria-selected={mode === m}
            onClick={() => { if (m === 'yaml' && !yamlText) setYamlText(preview); setMode(m); setFailure(undefined); }}>{m === 'form' ? 'Form' : 'YAML'}</Button>
        ))}
      </div>
      {mode === 'form' ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="flex flex-col gap-3">
            <Field label="Name" error={err('name')}><input className={input} name="name" value={form.name} onChange={(e) => set('name', e.target.value)} autoFocus placeholder="my-vm" /></Field>
            <Field label="Namespace" error={err('namespace')}><input className={input} name="namespace" list="creatable-namespaces" value={form.namespace} onChange={(e) => { setNsTouched(true); set('namespace', e.target.value); }} />
              <datalist id="creatable-namespaces">{creatable.namespaces.map((n) => <option key={n} value={n} />)}</datalist></Field>
            <Field label="Image" error={err('image')} hint={images.data?.images.length ? 'From the local image store.' : 'Any containerDisk reference.'}>
              <input className={input} name="image" list="images" value={form.image} onChange={(e) => set('image', e.target.value)} />
              <datalist id="images">{images.data?.images.map((i) => <option key={i.name} value={i.name} />)}</datalist>
            </Field>
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">Size</legend>
              <div className="flex gap-4 text-sm">
                <label className="flex items-center gap-1.5"><input type="radio" name="sizing" value="instancetype" checked={form.sizing === 'instancetype'} onChange={() => set('sizing', 'instancetype')} />Instance type</label>
                <label className="flex items-center gap-1.5"><input type="radio" name="sizing" value="custom" checked={form.sizing === 'custom'} onChange={() => set('sizing', 'custom')} />Custom</label>
              </div>
              {form.sizing === 'instancetype' ? (
                <InstancetypeCatalogue namespace={form.namespace} instancetype={form.instancetype} preference={form.preference} error={err('instancetype')}
                  onInstancetype={(n) => set('instancetype', n)} onPreference={(n) => set('preference', n)} />
              ) : (
                <div className="grid grid-cols-2 gap-3">
                  <Field label="CPU cores" error={err('cores')}><input className={input} name="cores" type="number" min={1} max={64} value={form.cores} onChange={(e) => set('cores', Number(e.target.value))} /></Field>
                  <Field label="Memory" error={err('memory')}><input className={input} name="memory" value={form.memory} onChange={(e) => set('memory', e.target.value)} /></Field>
                </div>
              )}
            </fieldset>
            <div className="grid grid-cols-3 gap-3">
              <Field label="Data disk" hint="A persistent disk (a DataVolume of the VM).">
                <select className={input} name="dataDisk" value={form.dataDisk} onChange={(e) => set('dataDisk', e.target.value as Form['dataDisk'])}>
                  <option value="none">None</option><option value="blank">Blank disk</option><option value="url">Disk image from a URL</option>
                </select>
              </Field>
              {form.dataDisk !== 'none' && <Field label="Size" error={err('dataDiskSize')}><input className={input} name="dataDiskSize" value={form.dataDiskSize} onChange={(e) => set('dataDiskSize', e.target.value)} /></Field>}
              {form.dataDisk !== 'none' && (
                <Field label="Storage class">
                  <select className={input} name="dataDiskClass" value={form.dataDiskClass} onChange={(e) => set('dataDiskClass', e.target.value)}>
                    <option value="">default{defaultClass ? ` (${defaultClass})` : ''}</option>
                    {classes.items.map((c) => <option key={c.metadata.name} value={c.metadata.name}>{c.metadata.name}</option>)}
                  </select>
                </Field>
              )}
            </div>
            {form.dataDisk === 'url' && <Field label="Disk image URL" error={err('dataDiskUrl')} hint="qcow2, raw or iso; .gz and .xz are unpacked."><input className={`${input} font-mono`} name="dataDiskUrl" value={form.dataDiskUrl} onChange={(e) => set('dataDiskUrl', e.target.value)} placeholder="https://…/disk.qcow2" /></Field>}
            <Field label="Cloud-init user data" error={err('userData')}><textarea className={`${input} font-mono`} name="userData" rows={5} value={form.userData} onChange={(e) => set('userData', e.target.value)} /></Field>
            <Field label="SSH public key" error={err('sshKey')} hint="Optional: added to the user data."><input className={`${input} font-mono`} name="sshKey" value={form.sshKey} onChange={(e) => set('sshKey', e.target.value)} placeholder="ssh-ed25519 AAAA…" /></Field>
            <div className="grid grid-cols-2 gap-3">
              <Field label="Run strategy" error={err('runStrategy')}>
                <select className={input} name="runStrategy" value={form.runStrategy} onChange={(e) => set('runStrategy', e.target.value as Form['runStrategy'])}>
                  {[RunStrategy.Always, RunStrategy.RerunOnFailure, RunStrategy.Manual, RunStrategy.Halted].map((r) => <option key={r}>{r}</option>)}
                </select>
              </Field>
              <label className="mt-6 flex items-center gap-2 text-sm"><input type="checkbox" name="startNow" checked={form.startNow} onChange={(e) => set('startNow', e.target.checked)} />Start now</label>
            </div>
          </div>
          <div>
            <p className="mb-1 text-sm font-medium">What will be posted</p>
            <YamlEditor value={preview} readOnly height="28rem" />
            <ExpandedPreview draft={form.sizing === 'instancetype' && form.instancetype ? vm : undefined} />
          </div>
        </div>
      ) : (
        <div>
          <YamlEditor value={yamlText} onChange={(v) => { setYamlText(v); setFailure(undefined); }}
            markLines={(failure?.causes ?? []).map((c) => (c.field ? lineOfField(yamlText, c.field) : undefined)).filter((n): n is number => !!n)} />
          <ExpandedPreview draft={yamlDraft} />
        </div>
      )}
      <ServerErrors failure={failure} lineOf={mode === 'yaml' ? (f) => lineOfField(yamlText, f) : undefined} />
      <div><Button variant="primary" onClick={create} disabled={busy || (mode === 'form' && Object.keys(local).length > 0)} data-testid="create-vm">{busy ? 'Creating…' : 'Create'}</Button></div>
    </div>
  );
}
