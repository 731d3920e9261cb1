/** Published sites and translations. */
export interface ShareLinkVM {
  id: string;
  name: string | null;
  active: boolean;
  createdAt: string;
}

export interface SiteSpaceNodeVM {
  type: 'site-space';
  id: string;
  title: string;
  path: string;
  spaceId: string | null;
  isDefault: boolean;
  hidden: boolean;
}

export interface SiteSectionNodeVM {
  type: 'section';
  id: string;
  title: string;
  path: string;
  isDefault: boolean;
  children: SiteSpaceNodeVM[];
}

export interface SiteGroupNodeVM {
  type: 'group';
  id: string;
  title: string;
  children: (SiteGroupNodeVM | SiteSectionNodeVM)[];
}

export type SiteNodeVM = SiteGroupNodeVM | SiteSectionNodeVM | SiteSpaceNodeVM;

export interface SiteVM {
  id: string;
  organizationId: string;
  organizationTitle: string | null;
  title: string;
  published: boolean;
  visibility: string;
  /** Section groups and sections in site order; site spaces outside any section last. */
  children: SiteNodeVM[];
  shareLinks: ShareLinkVM[];
}

/** A translation of an organization (as last listed): source space → target space, languages, status, last run. */
export interface TranslationVM {
  id: string;
  organizationId: string;
  organizationTitle: string | null;
  source: { spaceId: string; title: string | null; language: string };
  /** The space its runs write into (their content replaces what is there); null before its first run. */
  target: { spaceId: string; title: string | null } | null;
  language: string;
  status: string;
  /** When it last ran (its last change: the API gives no run time), or null when it never ran. */
  lastRunAt: string | null;
  runs: number;
}
