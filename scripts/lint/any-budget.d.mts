export function countAnys(cwd?: string): Promise<Record<string, number>>;
export function overBudget(counts: Record<string, number>, budget: Record<string, number>): [string, number, number][];
