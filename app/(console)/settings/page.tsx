import { KubeVirtSettings } from '@/components/settings/KubeVirtSettings';

export default function SettingsPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Settings</h1>
      <p className="text-sm text-slate-500 dark:text-slate-400">The cluster&apos;s KubeVirt configuration (kubevirt/kubevirt). Changes apply at once, without a restart.</p>
      <KubeVirtSettings />
    </div>
  );
}
