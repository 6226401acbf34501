import { CreateVMForm } from '@/components/vm/CreateVMForm';

export default function NewVMPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Create a virtual machine</h1>
      <CreateVMForm />
    </div>
  );
}
